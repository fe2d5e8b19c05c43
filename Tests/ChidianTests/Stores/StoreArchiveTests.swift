import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct StoreArchiveTests {
    @Test func anArchivedStoreLeavesEveryListAndAnswers404() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let kept =
                try await StoreFixture.store(client, manager, name: "Kept", categoryID: category).id
            let gone =
                try await StoreFixture.store(client, manager, name: "Gone", categoryID: category).id
            for id in [kept, gone] {
                #expect(try await client.send(.put, "/v1/stores/\(id)/favorite", token: fan.token).status == .noContent)
                #expect(
                    try await client.send(
                        .post, "/v1/stores/\(id)/promotions", body: ["amount": 10], token: manager.token
                    ).status == .created)
            }
            // MUT
            let archived = try await client.send(.delete, "/v1/stores/\(gone)", token: manager.token)
            // validate
            #expect(archived.status == .noContent)
            let notFound: [TestResponse] = [
                try await client.send(.get, "/v1/stores/\(gone)"),
                try await client.send(.patch, "/v1/stores/\(gone)", body: ["name": "Back"], token: manager.token),
                try await client.send(.patch, "/v1/stores/\(gone)", body: ["name": "Back"], token: admin.token),
                try await client.send(.delete, "/v1/stores/\(gone)", token: manager.token),
                try await client.send(.put, "/v1/stores/\(gone)/favorite", token: fan.token),
                try await client.send(.delete, "/v1/stores/\(gone)/favorite", token: fan.token),
                try await client.send(
                    .post, "/v1/stores/\(gone)/promotions", body: ["amount": 10], token: manager.token),
                try await client.send(.get, "/v1/stores/\(gone)/promotions", token: manager.token),
            ]
            for response in notFound {
                #expect(response.status == .notFound, "\(response.text)")
                #expect(response.problemCode == "store_not_found")
            }
            // `distance` needs `near`; archived stores leave the near-me list by the same condition.
            for sort in StoreSort.allCases where sort != .distance {
                #expect(try StoreFixture.ids(try await client.send(.get, "/v1/stores?sort=\(sort.rawValue)")) == [kept])
                #expect(
                    try StoreFixture.ids(
                        try await client.send(.get, "/v1/stores?sort=\(sort.rawValue)&category=\(category)")) == [kept])
            }
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/me/stores", token: manager.token)) == [kept])
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/me/favorites", token: fan.token)) == [kept])
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/promotions/daily")) == [kept])
            let categories = try StoreFixture.items(try await client.send(.get, "/v1/categories"))
            #expect(categories.first?["storeCount"] as? Int == 1)
            #expect(
                try await StoreRepository(database: app.database).views(ids: [gone, kept], viewer: nil).map(\.id) == [
                    kept
                ])
            // The data is kept: the ledger and the favorite are still there for a restore.
            let rows = try await app.database.query(
                "SELECT (SELECT count(*) FROM promotions WHERE store_id = \(gone))::int, (SELECT count(*) FROM favorites WHERE store_id = \(gone))::int"
            )
            #expect(try rows[0].decode((Int, Int).self) == (1, 1))
        }
    }

    @Test func archiveIsNotUndoneThroughTheAPIButRestoreBringsItBack() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id =
                try await StoreFixture.store(client, manager, name: "Phoenix", categoryID: category).id
            #expect(
                try await client.send(.delete, "/v1/stores/\(id)", token: manager.token, headers: [.ifMatch: "\"1\""])
                    .status == .noContent)
            // MUT
            try await StoreAdmin(database: app.database).restoreStore(id: id)
            await app.settle()
            // validate
            let back = try await client.send(.get, "/v1/stores/\(id)", token: manager.token)
            #expect(back.status == .ok)
            #expect(try back.json()["version"] as? Int == 3)
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/stores")) == [id])
        }
    }
}
