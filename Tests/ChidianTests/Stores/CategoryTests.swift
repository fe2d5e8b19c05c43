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

@Suite struct CategoryTests {
    @Test func categoriesCountLiveStores() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let bbq = try await StoreFixture.category(app, "Barbecue")
            let empty = try await StoreFixture.category(app, "Dessert")
            var hotpots: [String] = []
            for n in 0..<3 {
                hotpots.append(
                    try await StoreFixture.store(client, manager, name: "H\(n)", categoryID: hotpot).id)
            }
            _ = try await StoreFixture.store(client, manager, name: "B", categoryID: bbq)
            _ = try await client.send(.delete, "/v1/stores/\(hotpots[0])", token: manager.token)
            // MUT
            let response = try await client.send(.get, "/v1/categories")
            // validate
            #expect(response.status == .ok)
            let items = try StoreFixture.items(response)
            #expect(items.map { $0["id"] as! String } == [bbq, empty, hotpot], "code-point order of names")
            #expect(items.map { $0["name"] as! String } == ["Barbecue", "Dessert", "火锅"])
            #expect(items.map { $0["storeCount"] as! Int } == [1, 0, 2])
            #expect(items.allSatisfy { Set($0.keys) == ["id", "name", "storeCount"] })
        }
    }
}
