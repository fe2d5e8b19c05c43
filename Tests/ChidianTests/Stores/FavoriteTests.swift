import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct FavoriteTests {
    @Test func favoriteAndUnfavoriteAreIdempotent() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            func state() async throws -> (Int?, Bool?) {
                let store = try await client.send(.get, "/v1/stores/\(id)", token: fan.token).json()
                return (store["favoriteCount"] as? Int, store["favorited"] as? Bool)
            }
            // MUT + validate
            for _ in 0..<2 {
                let put = try await client.send(.put, "/v1/stores/\(id)/favorite", token: fan.token)
                #expect(put.status == .noContent)
                #expect(put.body.readableBytes == 0)
                #expect(try await state() == (1, true))
            }
            for _ in 0..<2 {
                let delete = try await client.send(.delete, "/v1/stores/\(id)/favorite", token: fan.token)
                #expect(delete.status == .noContent)
                #expect(try await state() == (0, false))
            }
        }
    }

    @Test func nobodyAndVisitorsMustSignIn() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            for method in [HTTPRequest.Method.put, .delete] {
                for headers in [HTTPFields(), StoreFixture.visitor()] {
                    let response = try await client.send(method, "/v1/stores/\(id)/favorite", headers: headers)
                    #expect(response.status == .unauthorized)
                    #expect(response.problemCode == "login_required")
                }
                let unknown = try await client.send(method, "/v1/stores/s_nope/favorite", token: fan.token)
                #expect(unknown.status == .notFound)
                #expect(unknown.problemCode == "store_not_found")
            }
            for headers in [HTTPFields(), StoreFixture.visitor()] {
                #expect(
                    try await client.send(.get, "/v1/me/favorites", headers: headers).problemCode == "login_required")
            }
            #expect(try await app.database.query("SELECT 1 FROM favorites").isEmpty)
        }
    }

    @Test func concurrentFavoritesCountExactly() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            var fans: [Session] = []
            for n in 0..<6 { fans.append(try await client.register("Fan\(n)")) }
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            let fanTokens = fans.map(\.token)
            // MUT: every fan favorites five times at once.
            let added = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in fanTokens {
                    for _ in 0..<5 {
                        group.addTask {
                            try await client.send(.put, "/v1/stores/\(id)/favorite", token: token).status.code
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let countAfterAdding = try await client.send(.get, "/v1/stores/\(id)").json()["favoriteCount"] as? Int
            // ... and then removes five times at once, the first half of the fans only.
            let removed = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in fanTokens.prefix(3) {
                    for _ in 0..<5 {
                        group.addTask {
                            try await client.send(.delete, "/v1/stores/\(id)/favorite", token: token).status.code
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // validate
            #expect(added == Array(repeating: 204, count: 30))
            #expect(removed == Array(repeating: 204, count: 15))
            #expect(countAfterAdding == 6)
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["favoriteCount"] as? Int == 3)
            let rows = try await app.database.query("SELECT count(*)::int FROM favorites WHERE store_id = \(id)")
            #expect(try rows[0].decode(Int.self) == 3)
        }
    }

    @Test func myFavoritesAreMostRecentFirstAndPage() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let other = try await client.register("Other")
            let category = try await StoreFixture.category(app, "火锅")
            var ids: [String] = []
            for n in 0..<5 {
                ids.append(
                    try await StoreFixture.store(client, manager, name: "S\(n)", categoryID: category).id)
            }
            for id in [ids[3], ids[0], ids[4], ids[1]] {
                _ = try await client.send(.put, "/v1/stores/\(id)/favorite", token: fan.token)
            }
            _ = try await client.send(.put, "/v1/stores/\(ids[2])/favorite", token: other.token)
            // Favoriting again does not move a store to the front.
            _ = try await client.send(.put, "/v1/stores/\(ids[3])/favorite", token: fan.token)
            // MUT
            let walked = try await StoreFixture.walk(client, "/v1/me/favorites?", limit: 3, token: fan.token)
            let page = try StoreFixture.items(try await client.send(.get, "/v1/me/favorites", token: fan.token))
            // validate
            #expect(walked.ids == [ids[1], ids[4], ids[0], ids[3]])
            #expect(walked.pages == 2)
            #expect(page.allSatisfy { $0["favorited"] as? Bool == true })
            #expect(page.allSatisfy { $0["adSpend"] == nil }, "a fan never sees ad spend")
        }
    }
}
