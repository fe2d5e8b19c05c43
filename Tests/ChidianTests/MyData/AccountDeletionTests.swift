import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct AccountDeletionTests {
    /// After `DELETE /v1/me` no row of any table names the user (by id, viewer key or rate-limit key), their
    /// tokens and profile are gone, what others made stays, and every aggregate equals its recount.
    @Test func deletionLeavesNoRowNamingTheUserAndExactAggregates() async throws {
        try await TestApp.run { client, app in
            let world = try await MyDataWorld.make(client, app)
            let database = app.database
            #expect(try await Aggregates.differences(database) == [])
            let second = try await client.send(
                .post, "/v1/auth/login", body: ["name": world.me.name, "password": "correct horse"])
            let secondToken = try #require(try second.json()["token"] as? String)

            let wrong = try await client.send(
                .delete, "/v1/me", body: ["password": "wrong horse"], token: world.me.token)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problemCode == "wrong_password")
            let missing = try await client.send(.delete, "/v1/me", body: [:], token: world.me.token)
            #expect(missing.problemCode == "wrong_password")
            #expect(try await client.send(.get, "/v1/me", token: world.me.token).status == .ok)

            let deleted = try await client.send(
                .delete, "/v1/me", body: ["password": "correct horse"], token: world.me.token)
            #expect(deleted.status == .noContent)
            await app.settle()

            for token in [world.me.token, secondToken] {
                #expect(try await client.send(.get, "/v1/me", token: token).problemCode == "invalid_token")
            }
            #expect(try await client.send(.get, "/v1/users/\(world.me.id)").problemCode == "user_not_found")
            for (column, how) in try await UserColumns.find(database) {
                let left = try await UserColumns.count(database, column, how, userID: world.me.id, name: world.me.name)
                #expect(left == 0, "\(column) still names the user")
            }
            #expect(try await UserColumns.tablesMentioning(database, world.me.id) == [])
            #expect(try await UserColumns.tablesMentioning(database, world.me.name.lowercased()) == [])
            #expect(try await Aggregates.differences(database) == [])

            // What others made stays: the other review (with the manager's like), the store photo, the store.
            let kept = try await database.query(
                "SELECT like_count FROM comments WHERE id = \(world.otherReviewID)"
            ).first?.decode(Int.self)
            #expect(kept == 1)
            let photo = try await database.query(
                "SELECT uploader_id FROM images WHERE id = \(world.storePhotoID)"
            ).first?.decode(String?.self)
            #expect(photo == .some(nil))
            let gone = try await database.query(
                "SELECT count(*)::int FROM images WHERE id = ANY (\(Array(world.myImages.dropFirst())))"
            ).first?.decode(Int.self)
            #expect(gone == 0)
            let store = try await database.query(
                "SELECT manager_id FROM stores WHERE id = \(world.myStoreID)"
            ).first?.decode(String.self)
            #expect(store == world.admin.id)
            let pair = try await database.query(
                "SELECT viewers FROM store_covisits WHERE store_id = \(world.storeID) AND other_id = \(world.myStoreID)"
            ).first?.decode(Int.self)
            #expect(pair == 1)
            let reviewPage = try await client.send(.get, "/v1/stores/\(world.storeID)/comments")
            #expect(!reviewPage.text.contains(world.me.id))
            // Last, as an attempt to sign in with the name counts in the throttle under that name, whoever tries.
            let login = try await client.send(
                .post, "/v1/auth/login", body: ["name": world.me.name, "password": "correct horse"])
            #expect(login.problemCode == "user_not_found")
        }
    }

    /// A manager with a live store is refused with 409 `stores_remain` and nothing changes; archived stores need
    /// an admin to take them.
    @Test func managerWithStoresIsRefusedUntilTheyCanBeHandedOver() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("店长", role: "manager")
            let categoryID = try await CommentFixture.category(app, "川菜")
            let storeID = try await CommentFixture.store(app, name: "店", categoryID: categoryID, managerID: manager.id)
            let body: [String: Any] = ["password": "correct horse"]

            let live = try await client.send(.delete, "/v1/me", body: body, token: manager.token)
            #expect(live.status == .conflict)
            #expect(live.problemCode == "stores_remain")
            try await CommentFixture.archive(app, storeID: storeID)
            let noAdmin = try await client.send(.delete, "/v1/me", body: body, token: manager.token)
            #expect(noAdmin.problemCode == "stores_remain")
            #expect(try await client.send(.get, "/v1/me", token: manager.token).status == .ok)

            let admin = try await app.admin(client)
            let deleted = try await client.send(.delete, "/v1/me", body: body, token: manager.token)
            #expect(deleted.status == .noContent)
            let store = try await app.database.query(
                "SELECT manager_id FROM stores WHERE id = \(storeID)"
            ).first?.decode(String.self)
            #expect(store == admin.id)
        }
    }

    /// More reviews than one batch: every batch and the last transaction together delete them all, and the
    /// aggregates of every store they touched are exact.
    @Test func reviewsBeyondOneBatchAllGo() async throws {
        try await TestApp.run { client, app in
            let writer = try await client.register("多评")
            let other = try await client.register("路人")
            let manager = try await client.register("店主", role: "manager")
            let categoryID = try await CommentFixture.category(app, "小吃")
            var stores: [String] = []
            for n in 0..<3 {
                stores.append(
                    try await CommentFixture.store(app, name: "店\(n)", categoryID: categoryID, managerID: manager.id))
            }
            let count = AccountDeletion.batch * 2 + 7
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body)
                SELECT 'review', (\(stores)::text[])[1 + g % 3], \(writer.id), 1 + g % 5, '第' || g || '次，毛肚好吃'
                FROM generate_series(1, \(count)) g
                """)
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body)
                VALUES ('review', \(stores[0]), \(other.id), 4, '虾饺好吃')
                """)
            let deleted = try await client.send(
                .delete, "/v1/me", body: ["password": "correct horse"], token: writer.token)
            #expect(deleted.status == .noContent)
            #expect(try await UserColumns.tablesMentioning(app.database, writer.id) == [])
            #expect(try await Aggregates.differences(app.database) == [])
            let left = try await app.database.query("SELECT sum(review_count)::int FROM stores").first?.decode(Int.self)
            #expect(left == 1)
        }
    }

    /// `chidian user delete NAME` applies the same rule.
    @Test func adminDeletesByName() async throws {
        try await TestApp.run { client, app in
            let world = try await MyDataWorld.make(client, app, name: "被删者")
            let admin = UserAdmin(database: app.database, config: TestApp.testConfig(url: app.url))
            await #expect(throws: AccountError.userNotFound("No user is named 无此人.")) {
                try await admin.delete(name: "无此人")
            }
            let report = try await admin.delete(name: "被删者")
            #expect(report == AccountDeletion.Report(reviews: 2, images: 2, storesHandedOver: 1))
            #expect(try await UserColumns.tablesMentioning(app.database, world.me.id) == [])
            #expect(try await Aggregates.differences(app.database) == [])

            // The seed export (`chidian export`) is a copy of the database: no trace of the user either.
            let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "deleted-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            _ = try await SeedExporter(database: app.database).run(directory: directory)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
                $0.hasSuffix(".json")
            }
            #expect(!files.isEmpty)
            for file in files {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                #expect(!text.contains(world.me.id) && !text.contains("被删者"), "\(file) names the deleted user")
            }
        }
    }

    /// The key shapes: by id always; by name only when asked, and the whole name before the address.
    @Test func rateKeysNameTheUserExactly() async throws {
        try await TestDatabase.withFresh { database, _ in
            func names(_ key: String, _ name: String?) async throws -> Bool {
                try await database.query("SELECT rate_key_names_user(\(key), 'u1', \(name))")[0].decode(Bool.self)
            }
            let cases: [(key: String, name: String?, names: Bool)] = [
                ("password:n:u1", nil, true), ("export|u:u1", nil, true), ("uploads-day|u1", nil, true),
                ("export|u:u11", nil, false), ("login:na:a|1.2.3.4", nil, false), ("login:na:a|1.2.3.4", "A", true),
                ("login:na:a|b|1.2.3.4", "a", false), ("login:na:a|b|1.2.3.4", "a|b", true),
            ]
            for test in cases {
                let answer = try await names(test.key, test.name)
                #expect(answer == test.names, "\(test.key) for \(test.name ?? "no name")")
            }
        }
    }
}
