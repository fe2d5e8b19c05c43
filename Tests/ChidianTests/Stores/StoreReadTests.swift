import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct StoreReadTests {
    @Test func unknownStoresAre404() async throws {
        try await TestApp.run { client, _ in
            for path in ["/v1/stores/s_nope", "/v1/stores/%00", "/v1/stores/\(String(repeating: "x", count: 300))"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.problemCode == "store_not_found", "\(path)")
            }
        }
    }

    @Test func adSpendIsShownOnlyToItsManagerAndAdmins() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let bought = try await client.send(
                .post, "/v1/stores/\(id)/promotions", body: ["amount": 300], token: manager.token)
            #expect(bought.status == .created)
            // MUT + validate
            for (token, sees) in [
                (manager.token, true), (admin.token, true), (rival.token, false), (user.token, false), (nil, false),
            ] {
                let response = try await client.send(.get, "/v1/stores/\(id)", token: token)
                #expect(response.status == .ok)
                // Created at 1, the purchase changed what it shows (`promoted`): 2.
                #expect(StoreFixture.etag(response) == "\"2\"")
                let store = try response.json()
                #expect(store["promoted"] as? Bool == true)
                #expect(store.keys.contains("adSpend") == sees)
                if sees { #expect(store["adSpend"] as? Int == 300) }
                let listed = try StoreFixture.items(try await client.send(.get, "/v1/stores", token: token))
                #expect(listed.count == 1)
                #expect(listed.first?.keys.contains("adSpend") == sees)
            }
            let visitor = try await client.send(.get, "/v1/stores/\(id)", headers: StoreFixture.visitor())
            #expect(try visitor.json().keys.contains("adSpend") == false)
            // The amount appears nowhere, as a value (ids are random text and may hold the digits).
            #expect(!visitor.text.contains(":300"))
        }
    }

    @Test func viewsKeepTheGivenOrderForTheViewer() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let category = try await StoreFixture.category(app, "火锅")
            let a = try await StoreFixture.store(client, manager, name: "A", categoryID: category).id
            let b = try await StoreFixture.store(client, manager, name: "B", categoryID: category).id
            let image = try await StoreFixture.image(app, uploaderID: manager.id)
            _ = try await client.send(.patch, "/v1/stores/\(b)", body: ["imageIds": [image]], token: manager.token)
            _ = try await client.send(.put, "/v1/stores/\(b)/favorite", token: fan.token)
            let repository = StoreRepository(database: app.database)
            let fanUser = AuthUser(id: fan.id, name: fan.name, role: .user, tokenHash: [])
            let managerUser = AuthUser(id: manager.id, name: manager.name, role: .manager, tokenHash: [])
            // MUT
            let forFan = try await repository.views(ids: [b, "s_nope", a, b, "\u{0}"], viewer: fanUser)
            let forManager = try await repository.views(ids: [a, b], viewer: managerUser)
            let none = try await repository.views(ids: [], viewer: nil)
            // validate
            #expect(forFan.map(\.id) == [b, a, b])
            #expect(forFan.map(\.favorited) == [true, false, true])
            #expect(forFan.map(\.adSpend) == [nil, nil, nil])
            #expect(forFan[0].imageUrls == [ImageURL.path(image)])
            #expect(forManager.map(\.adSpend) == [0, 0])
            #expect(none.isEmpty)
        }
    }

    @Test func ratingAverageAndBayesianScore() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let critic = try await client.register("Critic")
            let category = try await StoreFixture.category(app, "火锅")
            let one =
                try await StoreFixture.store(client, manager, name: "One five", categoryID: category).id
            let fifty =
                try await StoreFixture.store(client, manager, name: "Fifty", categoryID: category).id
            try await StoreFixture.review(app, storeID: one, authorID: critic.id, ratings: [5])
            // Fifty reviews averaging 4.6: thirty 5s and twenty 4s.
            try await StoreFixture.review(
                app, storeID: fifty, authorID: critic.id,
                ratings: Array(repeating: 5, count: 30) + Array(repeating: 4, count: 20))
            // MUT
            let single = try await client.send(.get, "/v1/stores/\(one)").json()["rating"] as! [String: Any]
            let many = try await client.send(.get, "/v1/stores/\(fifty)").json()["rating"] as! [String: Any]
            let ranked = try StoreFixture.ids(try await client.send(.get, "/v1/stores?sort=rating"))
            // validate: score = (sum + 3.5 * 5) / (count + 5)
            #expect(single["average"] as? Double == 5)
            #expect(single["count"] as? Int == 1)
            #expect(single["score"] as? Double == 3.75)
            #expect(many["average"] as? Double == 4.6)
            #expect(many["count"] as? Int == 50)
            #expect(many["score"] as? Double == 4.5)
            #expect(ranked == [fifty, one])
        }
    }
}
