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

@Suite struct PromotionPurchaseTests {
    @Test func aPurchaseAnswersTheLedgerRowAndTheNewTotal() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            // MUT
            let first = try await client.send(
                .post, "/v1/stores/\(id)/promotions", body: ["amount": 1], token: manager.token)
            let second = try await client.send(
                .post, "/v1/stores/\(id)/promotions", body: ["amount": 1_000_000], token: manager.token)
            // validate
            #expect(first.status == .created)
            let body = try first.json()
            #expect(Set(body.keys) == ["id", "storeId", "amount", "createdAt", "adSpend"])
            #expect((body["id"] as? String)?.hasPrefix("p_") == true)
            #expect(body["storeId"] as? String == id)
            #expect(body["amount"] as? Int == 1)
            #expect(body["adSpend"] as? Int == 1)
            #expect(second.status == .created)
            #expect(try second.json()["adSpend"] as? Int == 1_000_001)
            let store = try await client.send(.get, "/v1/stores/\(id)", token: manager.token).json()
            #expect(store["adSpend"] as? Int == 1_000_001)
            #expect(store["promoted"] as? Bool == true)
        }
    }

    @Test func onlyTheStoresManagerBuys() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let path = "/v1/stores/\(id)/promotions"
            // MUT
            let refused = [
                try await client.send(.post, path, body: ["amount": 5], token: admin.token),
                try await client.send(.post, path, body: ["amount": 5], token: rival.token),
                try await client.send(.post, path, body: ["amount": 5], token: user.token),
            ]
            let nobody = try await client.send(.post, path, body: ["amount": 5])
            let visitor = try await client.send(.post, path, body: ["amount": 5], headers: StoreFixture.visitor())
            let unknown = try await client.send(
                .post, "/v1/stores/s_nope/promotions", body: ["amount": 5], token: manager.token)
            // validate
            for response in refused {
                #expect(response.status == .forbidden)
                #expect(response.problemCode == "not_store_owner")
            }
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            #expect(visitor.problemCode == "login_required")
            #expect(unknown.status == .notFound)
            #expect(unknown.problemCode == "store_not_found")
            #expect(try await app.database.query("SELECT 1 FROM promotions").isEmpty)
            #expect(
                try await client.send(.get, "/v1/stores/\(id)", token: manager.token).json()["adSpend"] as? Int == 0)
        }
    }

    @Test func amountMustBeAJSONIntegerInRange() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let bodies = [
                #"{"amount": "5"}"#, #"{"amount": 5.5}"#, #"{"amount": null}"#, #"{}"#, #"{"amount": 0}"#,
                #"{"amount": -1}"#, #"{"amount": 1000001}"#, #"{"amount": true}"#, #"{"amount": [5]}"#,
                #"{"amount": {"value": 5}}"#, #"{"amount": 99999999999999999999999}"#, #"{"amount": 1e400}"#,
            ]
            for body in bodies {
                // MUT
                let response = try await client.sendRaw(
                    .post, "/v1/stores/\(id)/promotions", body: body, token: manager.token)
                // validate
                #expect(response.status == .badRequest, "\(body): \(response.text)")
                #expect(response.problemCode == "invalid_amount", "\(body)")
            }
            let notJSON = try await client.sendRaw(
                .post, "/v1/stores/\(id)/promotions", body: "amount=5", token: manager.token)
            #expect(notJSON.problemCode == "invalid_body")
            #expect(try await app.database.query("SELECT 1 FROM promotions").isEmpty)
        }
    }

    @Test func sixtyFourConcurrentPurchasesSumExactly() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let token = manager.token
            // MUT
            let totals = try await withThrowingTaskGroup(of: Int.self) { group in
                for amount in 1...64 {
                    group.addTask {
                        let response = try await client.send(
                            .post, "/v1/stores/\(id)/promotions", body: ["amount": amount], token: token)
                        guard response.status == .created else {
                            throw TestFailure("purchase: \(response.status) \(response.text)")
                        }
                        return try #require(response.json()["adSpend"] as? Int)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // validate: 1 + 2 + ... + 64 = 2080, and each purchase saw its own total.
            #expect(totals.count == 64)
            #expect(Set(totals).count == 64, "two purchases reported the same total")
            #expect(totals.max() == 2080)
            #expect(try await client.send(.get, "/v1/stores/\(id)", token: token).json()["adSpend"] as? Int == 2080)
            let ledger = try await app.database.query(
                "SELECT count(*)::int, sum(amount)::bigint, (SELECT ad_spend FROM stores WHERE id = \(id)) FROM promotions WHERE store_id = \(id)"
            )
            let (count, sum, adSpend) = try ledger[0].decode((Int, Int, Int).self)
            #expect(count == 64)
            #expect(sum == 2080)
            #expect(adSpend == 2080)
            let walked = try await StoreFixture.walk(client, "/v1/stores/\(id)/promotions?", limit: 10, token: token)
            #expect(walked.ids.count == 64)
            #expect(walked.pages == 7)
        }
    }
}
