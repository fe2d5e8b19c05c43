import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Races the per-module suites leave out: purchases racing edits and other stores, many viewers opening one
/// review, favorite and unfavorite racing each other, edit racing delete on one version, and one name claimed twice.
@Suite struct ConcurrencyTests {
    /// Runs every closure at once and returns the statuses in the order given.
    static func race(_ jobs: [@Sendable () async throws -> TestResponse]) async throws -> [Int] {
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask { (index, Int(try await job().status.code)) }
            }
            var statuses = Array(repeating: 0, count: jobs.count)
            for try await (index, status) in group { statuses[index] = status }
            return statuses
        }
    }

    @Test func purchasesOnSeveralStoresRacingEditsSumExactlyAndRankTheDailyList() async throws {
        try await TestApp.run { client, app in
            // setup: three stores; store k gets amounts k, k+3, k+6, ... up to 60.
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            var ids: [String] = []
            for name in ["A", "B", "C"] {
                ids.append(
                    try await StoreFixture.store(client, manager, name: name, categoryID: category).id)
            }
            let storeIDs = ids
            let token = manager.token
            var jobs: [@Sendable () async throws -> TestResponse] = []
            var expected = [0, 0, 0]
            for amount in 1...60 {
                let store = amount % 3
                expected[store] += amount
                jobs.append {
                    try await client.send(
                        .post, "/v1/stores/\(storeIDs[store])/promotions", body: ["amount": amount], token: token)
                }
            }
            // Unconditional edits of the same rows at the same time must not overwrite the running totals.
            for n in 0..<12 {
                jobs.append {
                    try await client.send(
                        .patch, "/v1/stores/\(storeIDs[n % 3])", body: ["address": "路 \(n)"], token: token)
                }
            }
            // MUT
            let statuses = try await Self.race(jobs)
            // validate
            #expect(statuses.prefix(60).allSatisfy { $0 == 201 }, "\(statuses)")
            #expect(statuses.suffix(12).allSatisfy { $0 == 200 }, "\(statuses)")
            for (index, id) in storeIDs.enumerated() {
                let store = try await client.send(.get, "/v1/stores/\(id)", token: token).json()
                #expect(store["adSpend"] as? Int == expected[index])
                // Every edit and every purchase changed what the store shows; all of them were counted.
                #expect(store["version"] as? Int == 25, "four edits and twenty purchases each")
                let edited = try await app.database.query("SELECT edited_version FROM stores WHERE id = \(id)")
                #expect(try edited[0].decode(Int.self) > 1)
                let ledger = try await app.database.query(
                    "SELECT coalesce(sum(amount), 0)::int FROM promotions WHERE store_id = \(id)")
                #expect(try ledger[0].decode(Int.self) == expected[index])
            }
            let daily = try StoreFixture.items(try await client.send(.get, "/v1/promotions/daily"))
            let ranked = zip(storeIDs, expected).sorted { $0.1 > $1.1 }.map(\.0)
            #expect(daily.map { $0["id"] as! String } == ranked)
            #expect(daily.allSatisfy { $0["promoted"] as? Bool == true && $0["adSpend"] == nil })
        }
    }

    @Test func manyViewersOpeningOneReviewAtOnceCountOneClickEach() async throws {
        // Every open at one instant: opens ten seconds apart count twice by rule, and on a loaded machine some of the
        // 52 requests started that far apart (a shake run counted 2). The race under test is the rows', not time's.
        let instant = Date()
        try await TestApp.run(clock: { instant }) { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let reviewID = try await world.review(5)["id"] as! String
            let reader = try await client.register("Reader")
            let visitors = (0..<12).map { String(format: "visitor-%04d", $0) }
            var jobs: [@Sendable () async throws -> TestResponse] = []
            for visitor in visitors {
                for _ in 0..<4 {
                    jobs.append {
                        try await client.send(.get, "/v1/comments/\(reviewID)", headers: StoreFixture.visitor(visitor))
                    }
                }
            }
            for _ in 0..<4 {
                jobs.append { try await client.send(.get, "/v1/comments/\(reviewID)", token: reader.token) }
            }
            // MUT
            let statuses = try await Self.race(jobs)
            try await app.flushSignals()
            // validate: every open answered, and each viewer has exactly one click on the category.
            #expect(statuses.allSatisfy { $0 == 200 })
            for visitor in visitors {
                let items = try StoreFixture.items(
                    try await client.send(.get, "/v1/me/interests", headers: StoreFixture.visitor(visitor)))
                #expect(items.count == 1)
                #expect(items.first?["clicks"] as? Int == 1, "\(visitor): \(items)")
            }
            let mine = try StoreFixture.items(try await client.send(.get, "/v1/me/interests", token: reader.token))
            #expect(mine.first?["clicks"] as? Int == 1)
        }
    }

    @Test func favoriteAndUnfavoriteRacingLeaveTheCountEqualToTheRows() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            var fans: [Session] = []
            for n in 0..<8 { fans.append(try await client.register("Fan\(n)")) }
            var jobs: [@Sendable () async throws -> TestResponse] = []
            for fan in fans {
                for round in 0..<6 {
                    let method: HTTPRequest.Method = round % 2 == 0 ? .put : .delete
                    jobs.append { try await client.send(method, "/v1/stores/\(id)/favorite", token: fan.token) }
                }
            }
            // MUT
            let statuses = try await Self.race(jobs)
            // validate: idempotent answers, and the kept count agrees with the rows and with each fan's view.
            #expect(statuses.allSatisfy { $0 == 204 })
            let rows = try await app.database.query("SELECT count(*)::int FROM favorites WHERE store_id = \(id)")
            let count = try rows[0].decode(Int.self)
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["favoriteCount"] as? Int == count)
            var favorited = 0
            for fan in fans {
                let store = try await client.send(.get, "/v1/stores/\(id)", token: fan.token).json()
                let listed = try StoreFixture.ids(try await client.send(.get, "/v1/me/favorites", token: fan.token))
                    .contains(id)
                #expect(store["favorited"] as? Bool == listed)
                if listed { favorited += 1 }
            }
            #expect(favorited == count)
        }
    }

    @Test func editRacingDeleteOnOneVersionHasOneWinner() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "面馆")
            for round in 0..<4 {
                // setup: a fresh review and store at version 1
                let reviewID = try await world.review(3, "第\(round)轮")["id"] as! String
                let storeID =
                    try await StoreFixture.store(client, manager, name: "店\(round)", categoryID: category).id
                let user = world.user.token
                let boss = manager.token
                let v1: HTTPFields = [.ifMatch: "\"1\""]
                // MUT
                let comment = try await Self.race([
                    {
                        try await client.send(
                            .patch, "/v1/comments/\(reviewID)", body: ["rating": 1], token: user, headers: v1)
                    },
                    { try await client.send(.delete, "/v1/comments/\(reviewID)", token: user, headers: v1) },
                ])
                let store = try await Self.race([
                    {
                        try await client.send(
                            .patch, "/v1/stores/\(storeID)", body: ["name": "改名\(round)"], token: boss, headers: v1)
                    },
                    { try await client.send(.delete, "/v1/stores/\(storeID)", token: boss, headers: v1) },
                ])
                // validate: exactly one write won; the loser was told the version moved (or the thing is gone).
                for (statuses, winners) in [(comment, [200, 204]), (store, [200, 204])] {
                    #expect(statuses.filter(winners.contains).count == 1, "\(statuses)")
                    #expect(statuses.allSatisfy { [200, 204, 404, 412].contains($0) }, "\(statuses)")
                }
                let readComment = try await client.send(.get, "/v1/comments/\(reviewID)?track=false")
                #expect(readComment.status == (comment[1] == 204 ? .notFound : .ok))
                let readStore = try await client.send(.get, "/v1/stores/\(storeID)")
                #expect(readStore.status == (store[1] == 204 ? .notFound : .ok))
            }
            let totals = try await CommentFixture.totals(app, storeID: world.storeID)
            #expect(totals.kept == totals.live)
        }
    }

    @Test func oneNameClaimedByManyAtOnceHasOneOwner() async throws {
        try await TestApp.run { client, app in
            // setup
            var renamers: [Session] = []
            for n in 0..<6 { renamers.append(try await client.register("Renamer\(n)")) }
            // MUT: eight registrations of one name (differing in case) and six renames to it, all at once.
            var jobs: [@Sendable () async throws -> TestResponse] = []
            for n in 0..<8 {
                let name = n % 2 == 0 ? "Popular" : "popular"
                jobs.append {
                    try await client.send(.post, "/v1/auth/register", body: ["name": name, "password": "long enough"])
                }
            }
            for renamer in renamers {
                jobs.append { try await client.send(.patch, "/v1/me", body: ["name": "POPULAR"], token: renamer.token) }
            }
            let statuses = try await Self.race(jobs)
            // validate: one winner in all, everyone else 409 name_taken, and one row holds the name.
            #expect(statuses.filter { $0 == 201 || $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == jobs.count - 1, "\(statuses)")
            let rows = try await app.database.query("SELECT count(*)::int FROM users WHERE lower(name) = 'popular'")
            #expect(try rows[0].decode(Int.self) == 1)
        }
    }
}
