import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct PromotionListTests {
    @Test func managerAndAdminsReadTheLedgerNewestFirst() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            var bought: [String] = []
            for amount in [10, 20, 30] {
                let response = try await client.send(
                    .post, "/v1/stores/\(id)/promotions", body: ["amount": amount], token: manager.token)
                bought.append(try #require(response.json()["id"] as? String))
            }
            let path = "/v1/stores/\(id)/promotions"
            // MUT
            let mine = try await client.send(.get, path, token: manager.token)
            let asAdmin = try await client.send(.get, path, token: admin.token)
            let walked = try await StoreFixture.walk(client, path + "?", limit: 2, token: admin.token)
            let refused = [
                try await client.send(.get, path, token: rival.token),
                try await client.send(.get, path, token: user.token),
            ]
            let nobody = try await client.send(.get, path)
            // validate
            #expect(mine.status == .ok)
            let items = try StoreFixture.items(mine)
            #expect(items.map { $0["id"] as! String } == bought.reversed())
            #expect(items.map { $0["amount"] as! Int } == [30, 20, 10])
            #expect(items.allSatisfy { $0["storeId"] as? String == id && $0["createdAt"] is String })
            #expect(try StoreFixture.ids(asAdmin) == bought.reversed())
            #expect(walked.ids == bought.reversed())
            #expect(walked.pages == 2)
            for response in refused {
                #expect(response.status == .forbidden)
                #expect(response.problemCode == "not_store_owner")
            }
            #expect(nobody.problemCode == "login_required")
        }
    }
}
