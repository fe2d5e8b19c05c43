import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 推荐菜: a store's top 5 vocabulary dishes by how many of its live reviews mention them, two-character dishes
/// counted like longer ones, kept as reviews are written, edited, hidden and deleted.
@Suite struct SignatureDishTests {
    static func dishes(_ client: any TestClientProtocol, _ storeID: String) async throws -> [String] {
        let store = try await client.send(.get, "/v1/stores/\(storeID)").json()
        return (store["dishes"] as? [[String: Any]] ?? []).map { "\($0["name"] as! String) \($0["count"] as! Int)" }
    }

    @Test func theTopFiveFollowTheReviews() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            #expect(try await Self.dishes(client, world.storeID) == [])
            var ids: [String] = []
            for body in [
                "毛肚很脆，水煮鱼也好", "毛肚新鲜", "毛肚一般", "水煮鱼太辣", "鸭肠不错", "虾饺皮薄", "肠粉滑", "叉烧一般",
            ] {
                let author = try await client.register("食客\(ids.count)")
                ids.append(try await world.review(4, body, as: author)["id"] as! String)
            }
            // MUT + validate: 毛肚 3, 水煮鱼 2, then the ones mentioned once by name in code-point order
            #expect(try await Self.dishes(client, world.storeID) == ["毛肚 3", "水煮鱼 2", "叉烧 1", "肠粉 1", "虾饺 1"])
            // an edit moves a mention
            let author =
                try await client.send(
                    .post, "/v1/auth/login", body: ["name": "食客4", "password": "correct horse"]
                ).json()["token"] as! String
            let edited = try await client.send(
                .patch, "/v1/comments/\(ids[4])", body: ["body": "水煮鱼好吃"], token: author)
            #expect(edited.status == .ok)
            #expect(try await Self.dishes(client, world.storeID) == ["毛肚 3", "水煮鱼 3", "叉烧 1", "肠粉 1", "虾饺 1"])
            // hiding and deleting take mentions away
            #expect(try await CommentModeration.hide(id: ids[0], database: app.database) == .hidden)
            await app.settle()
            #expect(try await Self.dishes(client, world.storeID) == ["毛肚 2", "水煮鱼 2", "叉烧 1", "肠粉 1", "虾饺 1"])
            try await app.database.query("DELETE FROM comments WHERE id = \(ids[1])")
            await app.settle()
            #expect(try await Self.dishes(client, world.storeID) == ["水煮鱼 2", "叉烧 1", "毛肚 1", "肠粉 1", "虾饺 1"])
            // and the stored top 5 equals a recount from the reviews themselves
            try await app.database.query("SELECT store_dishes_recount(\(world.storeID))")
            await app.settle()
            #expect(try await Self.dishes(client, world.storeID) == ["水煮鱼 2", "叉烧 1", "毛肚 1", "肠粉 1", "虾饺 1"])
        }
    }

    /// Edits and new reviews of one store at once: every write takes the store row before the search summaries, so
    /// none deadlocks (a body edit once took them the other way round).
    @Test func parallelEditsAndReviewsOfOneStoreAllSucceed() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            var writers: [(Session, String)] = []
            for n in 0..<8 {
                let author = try await client.register("并发\(n)")
                writers.append((author, try await world.review(4, "毛肚\(n)", as: author)["id"] as! String))
            }
            // MUT: each writer edits their review's body and posts another, all at once
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (n, (author, id)) in writers.enumerated() {
                    group.addTask {
                        try await client.send(
                            .patch, "/v1/comments/\(id)", body: ["body": "虾饺\(n)"], token: author.token
                        )
                        .status
                    }
                    group.addTask {
                        try await world.post(["rating": 5, "body": "肠粉\(n)"], as: author).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // validate
            #expect(statuses.filter { $0 == .ok }.count == 8)
            #expect(statuses.filter { $0 == .created }.count == 8)
            #expect(try await Self.dishes(client, world.storeID) == ["肠粉 8", "虾饺 8"])
        }
    }
}
