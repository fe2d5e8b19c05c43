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

@Suite struct ManagerStoresTests {
    @Test func managersSeeTheirOwnStoresWithAdSpend() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            var mine: [String] = []
            for n in 0..<5 {
                mine.append(
                    try await StoreFixture.store(client, manager, name: "Mine \(n)", categoryID: category).id)
            }
            _ = try await StoreFixture.store(client, rival, name: "Theirs", categoryID: category)
            _ = try await client.send(
                .post, "/v1/stores/\(mine[0])/promotions", body: ["amount": 70], token: manager.token)
            // MUT
            let walked = try await StoreFixture.walk(client, "/v1/me/stores?", limit: 2, token: manager.token)
            let page = try StoreFixture.items(try await client.send(.get, "/v1/me/stores", token: manager.token))
            // validate
            #expect(walked.ids == mine.reversed())
            #expect(walked.pages == 3)
            #expect(page.allSatisfy { $0["adSpend"] is Int })
            #expect(page.last?["adSpend"] as? Int == 70)
        }
    }

    @Test func othersAreRefused() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let asUser = try await client.send(.get, "/v1/me/stores", token: user.token)
            let asAdmin = try await client.send(.get, "/v1/me/stores", token: admin.token)
            let asNobody = try await client.send(.get, "/v1/me/stores")
            let asVisitor = try await client.send(.get, "/v1/me/stores", headers: StoreFixture.visitor())
            #expect(asUser.status == .forbidden)
            #expect(asUser.problemCode == "manager_required")
            #expect(asAdmin.status == .forbidden)
            #expect(asAdmin.problemCode == "manager_required")
            #expect(asNobody.problemCode == "login_required")
            #expect(asVisitor.problemCode == "login_required")
        }
    }
}
