import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// 通知 and following on the web: the notifications page, marking them read, the header's unread count (read by
/// app.js, which keeps it live from the notification stream), and follow buttons on user pages.
struct WebPeoplePages {
    let pages: WebPages
    let notifications: NotificationRepository
    let follows: FollowRepository

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/notifications", use: list)
        group.get("me/notifications/count", use: count)
        group.post("me/notifications/read", use: markRead)
        group.post("users/:id/follow", use: follow)
        group.post("users/:id/unfollow", use: unfollow)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let language = context.web?.language ?? .zh
        let page = try await notifications.list(
            userID: user.id, unread: false, page: try PageRequest(request, defaultLimit: 50))
        let items: [TemplateFields] = page.items.map { Self.item($0, language: language) }
        let model: TemplateFields = [
            "items": items, "hasItems": !items.isEmpty,
            "next": page.nextCursor.map { "/me/notifications?cursor=\(WebController.escapeQuery($0))" },
        ]
        return pages.render("notifications", title: language.text("notifications"), model: model, context: context)
    }

    /// One line: who, what, and a link to what it is about.
    static func item(_ view: NotificationView, language: Language) -> TemplateFields {
        let names = view.actors.map(\.name).joined(separator: "、")
        let others = view.actorCount - view.actors.count
        let who = others > 0 ? "\(names) \(language.text("andOthers")) \(others)" : names
        let about = view.comment.map { String($0.body.prefix(60)) } ?? view.store?.name
        // A follow is about its actor alone: the name is the link (a link to them after it had no text, no name).
        let actor = view.actors.first.map { "/users/\(WebController.escapePath($0.id))" }
        return [
            "who": who, "whoLink": about == nil ? actor : nil,
            "what": language.text("notification." + view.kind.rawValue), "about": about,
            "link": view.comment.map { "/comments/\(WebController.escapePath($0.id))" } ?? actor,
            "unread": view.readAt == nil, "when": Formatting.day(view.createdAt),
        ]
    }

    @Sendable func count(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let count = UnreadCount(count: try await notifications.unreadCount(userID: user.id))
        return try JSONResponse(count, headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
    }

    @Sendable func markRead(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        try await notifications.markRead(userID: user.id, ids: nil, before: nil)
        return WebPages.redirect(to: "/me/notifications")
    }

    @Sendable func follow(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setFollow(true, request, context: context)
    }

    @Sendable func unfollow(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setFollow(false, request, context: context)
    }

    func setFollow(_ on: Bool, _ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try await follows.set(on, followerID: user.id, followeeID: id)
        return WebPages.redirect(to: "/users/\(WebController.escapePath(id))")
    }
}
