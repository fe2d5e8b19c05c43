import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// What a stream wrote, for assertions while it still runs.
final class StreamTape: ResponseBodyWriter, @unchecked Sendable {
    private let text = Mutex<String>("")

    func write(_ buffer: ByteBuffer) async throws { text.withLock { $0 += String(buffer: buffer) } }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}

    var written: String { text.withLock { $0 } }

    /// The `id:` lines written so far, in order.
    var ids: [Int64] {
        written.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int64($0.dropFirst(4)) : nil }
    }

    /// The notifications (`data:` lines) written so far.
    var events: [[String: Any]] {
        written.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("data: ") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
        }
    }

    /// Waits (generously) until `condition` holds of what was written.
    func wait(_ what: String, until condition: (StreamTape) -> Bool) async throws {
        while !condition(self) {
            // timing: a poll with no bound; it ends once the stream has written it
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The live stream: events as notifications happen, resuming after `Last-Event-ID` without losing or repeating one,
/// heartbeats, and the caps.
@Suite struct NotificationStreamTests {
    /// Runs the stream's writer for `user` from `after` until cancelled.
    static func open(_ app: TestApp, _ user: Session, after: Int64) throws -> (Task<Void, any Error>, StreamTape) {
        let hub = app.services.notifications
        let subscriber = try hub.subscribe(userID: user.id)
        let tape = StreamTape()
        let repository = NotificationRepository(
            database: app.database, comments: CommentRepository(database: app.database),
            likes: CommentLikes(database: app.database))
        let task = Task {
            defer { hub.unsubscribe(subscriber) }
            var writer: any ResponseBodyWriter = tape
            try await NotificationsController.pump(
                &writer, subscriber: subscriber, repository: repository, userID: user.id, after: after)
        }
        return (task, tape)
    }

    @Test func eventsArriveLiveAndResumeAfterTheLastIdWithoutGapsOrRepeats() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(5)["id"] as! String
            let (first, tape) = try Self.open(app, world.user, after: 0)
            // MUT: a reply while the stream is open
            _ = try await client.send(
                .put, "/v1/comments/\(review)/reply", body: ["body": "谢谢"], token: world.manager.token)
            try await tape.wait("reply") { $0.events.count == 1 }
            #expect(tape.events[0]["kind"] as? String == "reply")
            #expect((tape.events[0]["comment"] as? [String: Any])?["id"] as? String == review)
            #expect(tape.written.hasPrefix(": open\n"))
            // the connection drops; meanwhile two follows and a like happen
            first.cancel()
            _ = await first.result
            let lastID = try #require(tape.ids.last)
            var fans: [Session] = []
            for n in 0..<2 { fans.append(try await client.register("粉\(n)")) }
            for fan in fans { _ = try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: fan.token) }
            _ = try await client.send(.put, "/v1/comments/\(review)/like", token: fans[0].token)
            // MUT: resume from the last id seen
            let (second, resumed) = try Self.open(app, world.user, after: lastID)
            defer { second.cancel() }
            try await resumed.wait("missed events") { $0.events.count == 3 }
            #expect(resumed.events.map { $0["kind"] as? String } == ["follow", "follow", "like"])
            #expect(resumed.ids == resumed.ids.sorted() && resumed.ids.allSatisfy { $0 > lastID })
            // a bumped like group comes again, with its new count
            _ = try await client.send(.put, "/v1/comments/\(review)/like", token: fans[1].token)
            try await resumed.wait("the bumped like") { $0.events.count == 4 }
            #expect(resumed.events[3]["actorCount"] as? Int == 2)
            #expect(Set(resumed.ids).count == resumed.ids.count)
        }
    }

    @Test func idleStreamsGetHeartbeats() async throws {
        try await TestApp.run(configure: { $0.streamHeartbeat = .seconds(1) }) { client, app in
            let user = try await client.register("安静")
            let (task, tape) = try Self.open(app, user, after: 0)
            defer { task.cancel() }
            try await tape.wait("a heartbeat") { $0.written.contains(": ping\n\n") }
            #expect(tape.events.isEmpty)
        }
    }

    @Test func streamsAreCappedPerUserAndNeedASignedInUser() async throws {
        try await TestApp.run(configure: { $0.streamsPerUser = 2 }) { client, app in
            let user = try await client.register("多开")
            let hub = app.services.notifications
            let a = try hub.subscribe(userID: user.id)
            let b = try hub.subscribe(userID: user.id)
            // MUT + validate: a third on this server is refused; over HTTP, 429 too_many_streams
            #expect(throws: NotificationHub.Refusal.self) { try hub.subscribe(userID: user.id) }
            let refused = try await client.send(.get, "/v1/me/notifications/stream", token: user.token)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.problemCode == "too_many_streams")
            // another user is not affected, and a closed stream frees its place
            let other = try hub.subscribe(userID: "u_other")
            hub.unsubscribe(a)
            let again = try hub.subscribe(userID: user.id)
            for subscriber in [b, other, again] { hub.unsubscribe(subscriber) }
            #expect(hub.openStreams == 0)
            #expect(try await client.send(.get, "/v1/me/notifications/stream").problemCode == "login_required")
            let badID = try await client.send(
                .get, "/v1/me/notifications/stream", token: user.token, headers: [.lastEventID: "abc"])
            #expect(badID.problemCode == "invalid_last_event_id")
        }
    }
}
