import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct StoreUpdateTests {
    @Test func managerPatchesAndTheVersionMoves() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let bbq = try await StoreFixture.category(app, "烧烤")
            let images = try await StoreFixture.images(app, uploaderID: manager.id, count: 3)
            let created = try await StoreFixture.store(
                client, manager, name: "Old", categoryID: hotpot,
                extra: ["description": "keep me", "imageIds": [images[0], images[1]]])
            let id = created.id
            // MUT
            let response = try await client.send(
                .patch, "/v1/stores/\(id)",
                body: ["name": " New ", "categoryId": bbq, "address": "街口", "imageIds": [images[2], images[0]]],
                token: manager.token, headers: [.ifMatch: "\"1\""])
            // validate
            #expect(response.status == .ok, "\(response.text)")
            #expect(StoreFixture.etag(response) == "\"2\"")
            let store = try response.decode(StoreView.self)
            #expect(store.name == "New")
            #expect(store.description == "keep me")
            #expect(store.address == "街口")
            #expect(store.category == .init(id: bbq, name: "烧烤"))
            #expect(store.imageUrls == [images[2], images[0]].map(ImageURL.path))
            #expect(store.version == 2)
            #expect(store.createdAt == created.createdAt)
            // The API shows whole seconds; the database shows the update moved updated_at.
            let moved = try await app.database.query("SELECT updated_at > created_at FROM stores WHERE id = \(id)")
            #expect(try moved[0].decode(Bool.self))
            // The category filter follows the move.
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/stores?category=\(bbq)")) == [id])
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/stores?category=\(hotpot)")) == [])
            // Clearing the carousel, without If-Match.
            let cleared = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["imageIds": []], token: manager.token)
            #expect(try cleared.json()["imageUrls"] as? [String] == [])
            #expect(StoreFixture.etag(cleared) == "\"3\"")
        }
    }

    @Test func staleIfMatchIs412AndChangesNothing() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let first = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "Hotter"], token: manager.token, headers: [.ifMatch: "\"1\""]
            )
            #expect(first.status == .ok)
            // MUT
            let stale = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "Stale"], token: manager.token, headers: [.ifMatch: "\"1\""])
            let emptyStale = try await client.send(
                .patch, "/v1/stores/\(id)", body: [:], token: manager.token, headers: [.ifMatch: "\"1\""])
            let garbage = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "X"], token: manager.token, headers: [.ifMatch: "\"abc\""])
            let huge = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "X"], token: manager.token,
                headers: [.ifMatch: "\"99999999999\""])
            let staleDelete = try await client.send(
                .delete, "/v1/stores/\(id)", token: manager.token, headers: [.ifMatch: "\"1\""])
            // validate
            for response in [stale, emptyStale, garbage, huge, staleDelete] {
                #expect(response.status == .preconditionFailed, "\(response.text)")
                #expect(response.problemCode == "version_conflict")
            }
            let now = try await client.send(.get, "/v1/stores/\(id)")
            #expect(try now.json()["name"] as? String == "Hotter")
            #expect(StoreFixture.etag(now) == "\"2\"")
            let current = try await client.send(
                .patch, "/v1/stores/\(id)", body: [:], token: manager.token, headers: [.ifMatch: "\"2\""])
            #expect(current.status == .ok)
            #expect(StoreFixture.etag(current) == "\"2\"", "an empty patch writes nothing")
        }
    }

    @Test func concurrentPatchesWithOneVersionHaveOneWinner() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            // MUT
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 0..<8 {
                    group.addTask {
                        try await client.send(
                            .patch, "/v1/stores/\(id)", body: ["name": "Writer \(n)"], token: manager.token,
                            headers: [.ifMatch: "\"1\""]
                        ).status.code
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // validate
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 412 }.count == 7)
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["version"] as? Int == 2)
        }
    }

    @Test func onlyItsManagerOrAnAdminEdits() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            // MUT
            let byRival = try await client.send(.patch, "/v1/stores/\(id)", body: ["name": "Mine"], token: rival.token)
            let byUser = try await client.send(.patch, "/v1/stores/\(id)", body: ["name": "Mine"], token: user.token)
            let byNobody = try await client.send(.patch, "/v1/stores/\(id)", body: ["name": "Mine"])
            let rivalDelete = try await client.send(.delete, "/v1/stores/\(id)", token: rival.token)
            let userDelete = try await client.send(.delete, "/v1/stores/\(id)", token: user.token)
            let nobodyDelete = try await client.send(.delete, "/v1/stores/\(id)")
            let byAdmin = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "Moderated"], token: admin.token)
            // validate
            for response in [byRival, byUser, rivalDelete, userDelete] {
                #expect(response.status == .forbidden)
                #expect(response.problemCode == "not_store_owner")
            }
            for response in [byNobody, nobodyDelete] {
                #expect(response.status == .unauthorized)
                #expect(response.problemCode == "login_required")
            }
            #expect(byAdmin.status == .ok)
            #expect(try byAdmin.json()["name"] as? String == "Moderated")
            #expect(try byAdmin.json()["adSpend"] as? Int == 0, "admins see ad spend")
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["name"] as? String == "Moderated")
            let adminDelete = try await client.send(.delete, "/v1/stores/\(id)", token: admin.token)
            #expect(adminDelete.status == .noContent)
        }
    }

    @Test func patchValidatesLikeCreate() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let other = try await client.register("Other")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let theirs = try await StoreFixture.image(app, uploaderID: other.id)
            let cases: [([String: Any], String)] = [
                (["name": " "], "name_required"),
                (["name": String(repeating: "x", count: 65)], "invalid_name"),
                (["categoryId": "c_nope"], "unknown_category"),
                (["description": String(repeating: "x", count: 2001)], "invalid_description"),
                (["address": String(repeating: "x", count: 201)], "invalid_address"),
                (["imageIds": [theirs]], "invalid_images"),
                (["name": ["x"]], "invalid_body"),
            ]
            for (body, code) in cases {
                let response = try await client.send(.patch, "/v1/stores/\(id)", body: body, token: manager.token)
                #expect(response.status == .badRequest, "\(code): \(response.text)")
                #expect(response.problemCode == code)
            }
            let unchanged = try await client.send(.get, "/v1/stores/\(id)")
            #expect(try unchanged.json()["name"] as? String == "Hot")
            #expect(StoreFixture.etag(unchanged) == "\"1\"")
            let missing = try await client.send(.patch, "/v1/stores/s_nope", body: ["name": "x"], token: manager.token)
            #expect(missing.status == .notFound)
            #expect(missing.problemCode == "store_not_found")
        }
    }
}
