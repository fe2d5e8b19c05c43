import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Merchant replies (商家回复): one per review, by the manager of its store, shown wherever the review is.
@Suite struct CommentReplyTests {
    @Test func theManagerRepliesAndTheReplyShowsEverywhereTheReviewDoes() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(4)["id"] as! String
            // MUT
            let first = try await client.send(
                .put, "/v1/comments/\(id)/reply", body: ["body": "  谢谢光临  "], token: world.manager.token)
            // validate
            #expect(first.status == .ok)
            let reply = try #require(try first.json()["reply"] as? [String: Any])
            #expect(reply["body"] as? String == "谢谢光临")
            #expect((reply["author"] as? [String: Any])?["id"] as? String == world.manager.id)
            let read = try await client.send(.get, "/v1/comments/\(id)?track=false").json()
            #expect((read["reply"] as? [String: Any])?["body"] as? String == "谢谢光临")
            let listed = try CommentFixture.items(try await client.send(.get, "/v1/stores/\(world.storeID)/comments"))
            #expect((listed.first?["reply"] as? [String: Any])?["body"] as? String == "谢谢光临")
            let feed = try await client.send(.get, "/v1/feed/featured").json()
            #expect(
                ((feed["items"] as? [[String: Any]])?.first?["reply"] as? [String: Any])?["body"] as? String == "谢谢光临")
            let mine = try await client.send(.get, "/v1/me/comments", token: world.user.token).json()
            #expect(((mine["items"] as? [[String: Any]])?.first?["reply"] as? [String: Any]) != nil)
            // a second PUT replaces the body; the creation time stays
            let second = try await client.send(
                .put, "/v1/comments/\(id)/reply", body: ["body": "欢迎再来"], token: world.manager.token)
            let replaced = try #require(try second.json()["reply"] as? [String: Any])
            #expect(replaced["body"] as? String == "欢迎再来")
            #expect(replaced["createdAt"] as? String == reply["createdAt"] as? String)
            let count = try await app.database.query("SELECT count(*)::int FROM comment_replies")[0].decode(Int.self)
            #expect(count == 1)
        }
    }

    @Test func onlyTheStoresManagerRepliesToReviewsWithAValidBody() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let other = try await client.register("别家老板", role: "manager")
            let admin = try await app.admin(client, name: "管理员")
            let id = try await world.review(4)["id"] as! String
            let notice = try await world.comment(["body": "本店通知"], as: world.manager)["id"] as! String
            func put(_ comment: String, _ body: Any, _ session: Session?) async throws -> String? {
                try await client.send(
                    .put, "/v1/comments/\(comment)/reply", body: ["body": body], token: session?.token
                )
                .problemCode
            }
            // MUT + validate
            #expect(try await put(id, "谢谢", nil) == "login_required")
            #expect(try await put(id, "谢谢", world.user) == "not_store_owner")
            #expect(try await put(id, "谢谢", other) == "not_store_owner")
            #expect(try await put(id, "谢谢", admin) == "not_store_owner")
            #expect(try await put(notice, "谢谢", world.manager) == "not_a_review")
            #expect(try await put(id, "   ", world.manager) == "body_required")
            #expect(try await put(id, String(repeating: "好", count: 2001), world.manager) == "body_too_long")
            #expect(try await put("m_none", "谢谢", world.manager) == "comment_not_found")
            let count = try await app.database.query("SELECT count(*)::int FROM comment_replies")[0].decode(Int.self)
            #expect(count == 0)
        }
    }

    @Test func theManagerOrAnAdminDeletesAReply() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client, name: "管理员")
            let id = try await world.review(4)["id"] as! String
            func reply() async throws {
                let response = try await client.send(
                    .put, "/v1/comments/\(id)/reply", body: ["body": "谢谢"], token: world.manager.token)
                #expect(response.status == .ok)
            }
            try await reply()
            // MUT + validate
            #expect(
                try await client.send(.delete, "/v1/comments/\(id)/reply", token: world.user.token).problemCode
                    == "not_store_owner")
            #expect(try await client.send(.delete, "/v1/comments/\(id)/reply", token: admin.token).status == .noContent)
            #expect(
                try await client.send(.delete, "/v1/comments/\(id)/reply", token: admin.token).problemCode
                    == "reply_not_found")
            try await reply()
            #expect(
                try await client.send(.delete, "/v1/comments/\(id)/reply", token: world.manager.token).status
                    == .noContent)
            let read = try await client.send(.get, "/v1/comments/\(id)?track=false").json()
            #expect(read["reply"] is NSNull)
            // deleting the review takes its reply with it
            try await reply()
            #expect(try await client.send(.delete, "/v1/comments/\(id)", token: world.user.token).status == .noContent)
            let left = try await app.database.query("SELECT count(*)::int FROM comment_replies")[0].decode(Int.self)
            #expect(left == 0)
        }
    }
}
