import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Notifications: one of each kind from its cause, none for one's own act or about a hidden review, likes grouped,
/// the unread count and marking read.
@Suite struct NotificationTests {
    static func list(_ client: any TestClientProtocol, _ session: Session, unread: Bool = false) async throws
        -> [[String: Any]]
    {
        let response = try await client.send(
            .get, "/v1/me/notifications" + (unread ? "?unread=true" : ""), token: session.token)
        guard response.status == .ok else { throw TestFailure("notifications: \(response.status) \(response.text)") }
        return try response.json()["items"] as! [[String: Any]]
    }

    /// Waits (generously) for `session`'s list to hold `count` notifications: `followed_review` ones come from the
    /// servers' fan-out, just after the review's transaction.
    static func waitFor(_ count: Int, _ client: any TestClientProtocol, _ session: Session) async throws
        -> [[String: Any]]
    {
        while true {
            let items = try await list(client, session)
            if items.count >= count { return items }
            // timing: a poll with no bound; it ends once the fan-out has written them
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func unread(_ client: any TestClientProtocol, _ session: Session) async throws -> Int {
        try await client.send(.get, "/v1/me/notifications/unread-count", token: session.token).json()["count"] as! Int
    }

    @Test func eachCauseNotifiesTheRightPersonOnce() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let fan = try await client.register("粉丝")
            let admin = try await app.admin(client)
            // follow: the followed hears
            _ = try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: fan.token)
            // the manager follows the author too, and must hear of the review once, as its store's manager
            _ = try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: world.manager.token)
            let review = try await world.review(5, "很好吃")["id"] as! String
            // reply: the author hears
            _ = try await client.send(
                .put, "/v1/comments/\(review)/reply", body: ["body": "谢谢"], token: world.manager.token)
            // report handled: the reporter hears
            _ = try await client.send(
                .post, "/v1/comments/\(review)/reports", body: ["reason": "spam"], token: fan.token)
            let handled = try await client.send(
                .post, "/v1/moderation/comments/\(review)", body: ["action": "dismiss"], token: admin.token)
            #expect(handled.status == .ok)

            let mine = try await Self.list(client, world.user)
            #expect(mine.map { $0["kind"] as? String } == ["reply", "follow", "follow"])
            let reply = mine[0]
            #expect((reply["actors"] as? [[String: Any]])?.first?["id"] as? String == world.manager.id)
            #expect((reply["comment"] as? [String: Any])?["id"] as? String == review)
            #expect((reply["store"] as? [String: Any])?["id"] as? String == world.storeID)
            #expect(reply["readAt"] is NSNull)
            let fans = try await Self.waitFor(2, client, fan)
            // the followers' fan-out runs beside the review's transaction, so either may be first
            #expect(Set(fans.compactMap { $0["kind"] as? String }) == ["report_handled", "followed_review"])
            let posted = try #require(fans.first { $0["kind"] as? String == "followed_review" })
            #expect((posted["actors"] as? [[String: Any]])?.first?["name"] as? String == "食客")
            #expect((posted["comment"] as? [String: Any])?["id"] as? String == review)
            let manager = try await Self.list(client, world.manager)
            #expect(manager.map { $0["kind"] as? String } == ["store_review"])
            #expect(try await Self.unread(client, world.user) == 3)
        }
    }

    @Test func likesGroupPerReviewWhileUnread() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(4)["id"] as! String
            var likers: [Session] = []
            for n in 0..<5 { likers.append(try await client.register("赞\(n)")) }
            // MUT: five likes
            for liker in likers { _ = try await client.send(.put, "/v1/comments/\(review)/like", token: liker.token) }
            // validate: one group, the newest three named, five counted
            var items = try await Self.list(client, world.user)
            #expect(items.count == 1)
            #expect(items[0]["kind"] as? String == "like")
            #expect(items[0]["actorCount"] as? Int == 5)
            #expect((items[0]["actors"] as? [[String: Any]])?.map { $0["name"] as? String } == ["赞4", "赞3", "赞2"])
            // unliking takes the liker out
            _ = try await client.send(.delete, "/v1/comments/\(review)/like", token: likers[4].token)
            items = try await Self.list(client, world.user)
            #expect(items[0]["actorCount"] as? Int == 4)
            // once read, a new like starts a new group
            #expect(
                try await client.send(.post, "/v1/me/notifications/read", body: [:], token: world.user.token).status
                    == .noContent)
            _ = try await client.send(.put, "/v1/comments/\(review)/like", token: likers[4].token)
            items = try await Self.list(client, world.user)
            #expect(items.map { $0["actorCount"] as? Int } == [1, 4])
            #expect(try await Self.unread(client, world.user) == 1)
        }
    }

    @Test func noneForOnesOwnActsNorAboutHiddenReviews() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let fan = try await client.register("粉丝")
            _ = try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: fan.token)
            // the follow is the fan's act: read it, so what follows is all that is unread
            _ = try await client.send(.post, "/v1/me/notifications/read", token: world.user.token)
            let review = try await world.review(5)["id"] as! String
            // own acts, by any path: the author likes their own review in SQL
            try await app.database.query(
                "INSERT INTO comment_likes (comment_id, user_id) VALUES (\(review), \(world.user.id))")
            // a manager's notice on their own store is no review
            _ = try await world.comment(["body": "本店休息"], as: world.manager)
            #expect(try await Self.list(client, world.user, unread: true).isEmpty)
            // about a hidden review: the existing ones go, no new ones come
            _ = try await client.send(.put, "/v1/comments/\(review)/like", token: fan.token)
            #expect(try await Self.unread(client, world.user) == 1)
            // the fan's followed_review has arrived (the outbox), so its absence below is the hide's doing
            #expect(try await Self.waitFor(1, client, fan).count == 1)
            #expect(try await CommentModeration.hide(id: review, database: app.database) == .hidden)
            await app.settle()
            #expect(try await Self.list(client, world.user, unread: true).isEmpty)
            #expect(try await Self.list(client, fan).isEmpty)
            #expect(try await Self.list(client, world.manager).isEmpty)
            try await app.database.query(
                "INSERT INTO comment_replies (comment_id, author_id, body) VALUES (\(review), \(world.manager.id), '谢谢')"
            )
            #expect(try await Self.unread(client, world.user) == 0)
        }
    }

    @Test func anAdminClosingTheirOwnReportIsNotToldButOtherReportersAre() async throws {
        try await TestApp.run { client, app in
            // setup: the admin and a user both report one review
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client)
            let reporter = try await client.register("举报人")
            let review = try await world.review(2, "一般")["id"] as! String
            for session in [admin, reporter] {
                let filed = try await client.send(
                    .post, "/v1/comments/\(review)/reports", body: ["reason": "spam"], token: session.token)
                #expect(filed.status == .created)
            }
            // MUT: the admin dismisses them
            let handled = try await client.send(
                .post, "/v1/moderation/comments/\(review)", body: ["action": "dismiss"], token: admin.token)
            #expect(handled.status == .ok)
            // validate: the other reporter hears, the admin does not
            #expect(try await Self.list(client, reporter).map { $0["kind"] as? String } == ["report_handled"])
            #expect(try await Self.list(client, admin).isEmpty)
        }
    }

    @Test func markingReadByIdsBeforeAndAll() async throws {
        try await TestApp.run { client, app in
            let target = try await client.register("名人")
            for n in 0..<4 {
                let follower = try await client.register("关注\(n)")
                _ = try await client.send(.put, "/v1/users/\(target.id)/follow", token: follower.token)
            }
            let items = try await Self.list(client, target)
            let ids = items.map { $0["id"] as! String }
            #expect(ids.count == 4)
            // MUT: by id
            #expect(
                try await client.send(.post, "/v1/me/notifications/read", body: ["ids": [ids[0]]], token: target.token)
                    .status == .noContent)
            #expect(try await Self.unread(client, target) == 3)
            let unread = try await Self.list(client, target, unread: true)
            #expect(unread.map { $0["id"] as! String } == Array(ids.dropFirst()))
            // before a time earlier than all of them: none
            _ = try await client.send(
                .post, "/v1/me/notifications/read", body: ["before": "2000-01-01T00:00:00Z"], token: target.token)
            #expect(try await Self.unread(client, target) == 3)
            // another user's ids change nothing of theirs
            let other = try await client.register("旁人")
            _ = try await client.send(.post, "/v1/me/notifications/read", body: ["ids": ids], token: other.token)
            #expect(try await Self.unread(client, target) == 3)
            // no body: all
            #expect(try await client.send(.post, "/v1/me/notifications/read", token: target.token).status == .noContent)
            #expect(try await Self.unread(client, target) == 0)
            // bad input
            #expect(
                try await client.send(.post, "/v1/me/notifications/read", body: ["ids": ["x"]], token: target.token)
                    .problemCode == "invalid_ids")
            #expect(
                try await client.send(
                    .post, "/v1/me/notifications/read", body: ["before": "yesterday"], token: target.token
                )
                .problemCode == "invalid_before")
            #expect(
                try await client.send(.get, "/v1/me/notifications?unread=maybe", token: target.token).problemCode
                    == "invalid_unread")
            #expect(try await client.send(.get, "/v1/me/notifications").problemCode == "login_required")
        }
    }
}
