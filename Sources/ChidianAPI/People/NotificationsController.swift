import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A signed-in user's notifications: the list, the unread count, marking read, and the live stream.
struct NotificationsController {
    let notifications: NotificationRepository
    let hub: NotificationHub?
    let sessions: SessionRepository

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/notifications", use: list)
        group.get("me/notifications/unread-count", use: unreadCount)
        group.post("me/notifications/read", use: markRead)
        group.get("me/notifications/stream", use: stream)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<NotificationView>
    > {
        let user = try context.requireUser()
        let unread =
            try QueryParameters(request).choice(
                "unread", orElse: Problem.badRequest("invalid_unread", "unread must be true or false.")) == Flag.true
        return JSONResponse(
            try await notifications.list(userID: user.id, unread: unread, page: try PageRequest(request)))
    }

    enum Flag: String {
        case `true`, `false`
    }

    @Sendable func unreadCount(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        UnreadCount
    > {
        let user = try context.requireUser()
        return JSONResponse(UnreadCount(count: try await notifications.unreadCount(userID: user.id)))
    }

    struct ReadBody: Decodable {
        var ids: [String]?
        var before: String?
    }

    @Sendable func markRead(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        var request = request
        // No body (or `{}`) means all of them.
        let empty =
            request.headers[.contentLength] == "0"
            || (request.headers[.contentLength] == nil && request.headers[.transferEncoding] == nil)
        // At most 1,000 ids of at most 20 digits: a small body.
        let body = empty ? ReadBody() : try await request.decodeJSON(ReadBody.self, limit: 64 << 10)
        if let ids = body.ids, ids.count > 1000 { throw PeopleError.invalidIDs }
        var before: Date? = nil
        if let text = body.before {
            guard let date = Self.date(text) else { throw PeopleError.invalidBefore }
            before = date
        }
        try await notifications.markRead(userID: user.id, ids: body.ids, before: before)
        return .noContent
    }

    static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    /// `text/event-stream`: status and headers at once, then each notification not yet sent, oldest first, as
    /// `id: <seq>` and one line of JSON. `Last-Event-ID` resumes after that event; without it the stream starts
    /// with what comes next. Signed in by bearer token or by the web session's cookie (a GET that changes nothing,
    /// so the cookie needs no CSRF token).
    @Sendable func stream(_ request: Request, context: AppRequestContext) async throws -> Response {
        var user = context.viewer.user
        if user == nil, let token = request.cookies[WebState.sessionCookie]?.value {
            user = try await sessions.authenticate(token: token)
        }
        guard let user else { throw Problem.loginRequired }
        guard let hub else {
            throw Problem(.serviceUnavailable, "streams_unavailable", "This server has no notification streams.")
        }
        let last: Int64
        if let header = request.headers[.lastEventID] {
            guard let seq = Int64(header.trimmingCharacters(in: .whitespaces)), seq >= 0 else {
                throw Problem.badRequest("invalid_last_event_id", "Last-Event-ID must be an event id this stream sent.")
            }
            // An id past the newest (forged, or from before a restore) would mute the stream until it caught up.
            last = min(seq, try await notifications.lastSeq(userID: user.id))
        } else {
            last = try await notifications.lastSeq(userID: user.id)
        }
        let subscriber: NotificationHub.Subscriber
        do {
            subscriber = try await hub.admit(userID: user.id)
        } catch .userLimit {
            throw Problem(
                .tooManyRequests, "too_many_streams",
                "At most \(hub.perUser) notification streams may be open at once; close one first.",
                headers: [.retryAfter: "5"])
        } catch .serverLimit {
            throw Problem(
                .serviceUnavailable, "server_busy", "This server holds all the streams it can; try again shortly.",
                headers: [.retryAfter: "5"])
        }
        let repository = notifications
        let userID = user.id
        let body = ResponseBody { writer in
            defer { hub.unsubscribe(subscriber) }
            try await Self.pump(&writer, subscriber: subscriber, repository: repository, userID: userID, after: last)
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // nginx passes each event on at once instead of buffering the response.
        headers[.xAccelBuffering] = "no"
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension NotificationsController {
    /// How long a stream lives: then it ends, and the client reconnects with `Last-Event-ID` (losing nothing) and
    /// signs in again, so a session revoked meanwhile (sign-out, password change, deletion) stops hearing.
    static let lifetime: Duration = .seconds(15 * 60)

    /// Writes the stream's events until the subscriber ends (shutdown), a write fails (the client left) or its
    /// `lifetime` is over: on each wake-up, every notification after the last one sent, oldest first; on a
    /// heartbeat with nothing due, a comment.
    static func pump(
        _ writer: inout any ResponseBodyWriter, subscriber: NotificationHub.Subscriber,
        repository: NotificationRepository, userID: String, after start: Int64, lifetime: Duration = lifetime
    ) async throws {
        let end = ContinuousClock.now + lifetime
        var last = start
        // A first line, so proxies and clients see the stream open before anything happens.
        try await writer.write(ByteBuffer(string: ": open\nretry: 2000\n\n"))
        for await _ in subscriber.wakes {
            guard ContinuousClock.now < end else { return }
            guard subscriber.takePending() else {
                try await writer.write(ByteBuffer(string: ": ping\n\n"))
                continue
            }
            while true {
                let views = try await repository.after(userID: userID, seq: last, limit: 100)
                var buffer = ByteBuffer()
                for view in views {
                    buffer.writeString("id: \(view.seq)\ndata: ")
                    buffer.writeBytes(try JSONEncoder.chidian.encode(view))
                    buffer.writeString("\n\n")
                    last = view.seq
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
                if views.count < 100 { break }
            }
        }
    }
}

extension HTTPField.Name {
    static let lastEventID = Self("Last-Event-ID")!
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
