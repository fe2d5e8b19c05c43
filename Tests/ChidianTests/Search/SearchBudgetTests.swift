import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A text counted in reviews reads at most about `SEARCH_ROW_BUDGET` rows (and a quarter more to fill the page):
/// within the budget the page is exact, beyond it the page says `approximate` and its counts are lower bounds.
@Suite struct SearchBudgetTests {
    /// 好味道 (not a dish) in a different number of reviews per store, and reviews holding its pairs apart.
    static let plan: [(String, [String])] = [
        ("一号店", ["好味道", "真是好味道", "好味道啊", "味道好味"]),
        ("二号店", ["好味道", "好味道！", "还行"]),
        ("三号店", ["好味道", "味道一般，好吃", "好味", "味道"]),
        ("四号店", ["好味道呀", "好味道", "好味道", "好味道", "好味道"]),
        ("五号店", ["味道好", "好味", "很好"]),
        ("六号店", ["好味道"]),
    ]

    static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> [String: String] {
        let manager = try await client.register("预算店长", role: "manager")
        let eater = try await client.register("预算食客")
        let category = try await StoreAdmin(database: app.database).addCategory(name: "家常菜").id
        var stores: [String: String] = [:]
        for (name, bodies) in plan {
            let id = try await StoreFixture.store(client, manager, name: name, categoryID: category).id
            stores[name] = id
            for (n, body) in bodies.enumerated() {
                // One author per review, as a store's rating counts each author once.
                let author = n == 0 ? eater : try await client.register("预算食客\(name)\(n)")
                let response = try await client.send(
                    .post, "/v1/stores/\(id)/comments", body: ["rating": 4, "body": body], token: author.token)
                guard response.status == .created else { throw TestFailure("post: \(response.text)") }
            }
        }
        return stores
    }

    /// Each store's true count of reviews containing `text`, from the reviews themselves.
    static func trueCounts(_ app: TestApp, _ text: String) async throws -> [String: Int] {
        let rows = try await app.database.query(
            """
            SELECT store_id, count(*)::int FROM comments
            WHERE kind = 'review' AND hidden_at IS NULL AND strpos(lower(body), \(text)) > 0 GROUP BY store_id
            """)
        var counts: [String: Int] = [:]
        for row in rows {
            let (id, n) = try row.decode((String, Int).self)
            counts[id] = n
        }
        return counts
    }

    static func counts(_ page: FetchedSearchPage) -> [(String, Int)] {
        page.items.map { item in (item.id, item.matches.first { $0.field == "dish" }?.count ?? -1) }
    }

    @Test func withinTheBudgetThePageIsExactAndPagesWalkTheSameOrder() async throws {
        try await TestApp.run { client, app in
            let stores = try await Self.make(client, app)
            let truth = try await Self.trueCounts(app, "好味道")
            // MUT
            let page = try await SearchClient.page(client, "好味道")
            // validate
            #expect(page.raw["approximate"] as? Bool == false)
            // By count; 三号店 and 六号店 tie at 1 and 三号店 has the higher score (more 4-star reviews).
            let order = ["四号店", "一号店", "二号店", "三号店", "六号店"].map { stores[$0]! }
            #expect(Self.counts(page).map(\.0) == order)
            #expect(Self.counts(page).map(\.1) == order.map { truth[$0]! })
            var walked: [String] = []
            var cursor: String?
            repeat {
                let small = try await SearchClient.page(client, "好味道", limit: 2, cursor: cursor)
                #expect(small.raw["approximate"] as? Bool == false)
                walked += small.items.map(\.id)
                cursor = small.next
            } while cursor != nil
            #expect(walked == page.items.map(\.id))
        }
    }

    @Test func pastTheBudgetThePageSaysSoAndItsCountsAreLowerBounds() async throws {
        // Two pairs, then the walk: room for the first stores' reviews only.
        try await TestApp.run(configure: { $0.searchRowBudget = 12 }) { client, app in
            _ = try await Self.make(client, app)
            let truth = try await Self.trueCounts(app, "好味道")
            // MUT
            let page = try await SearchClient.page(client, "好味道")
            // validate
            #expect(page.raw["approximate"] as? Bool == true)
            #expect(!page.items.isEmpty)
            for (id, count) in Self.counts(page) { #expect(count >= 1 && count <= truth[id] ?? 0, "\(id): \(count)") }
            // the store the walk meets first (most 好味 reviews) is counted exactly
            #expect(Self.counts(page).first.map { truth[$0.0] == $0.1 } == true)
        }
    }

    @Test func aTextWithAPairNoReviewHasIsExactlyEmpty() async throws {
        try await TestApp.run(configure: { $0.searchRowBudget = 3 }) { client, app in
            _ = try await Self.make(client, app)
            // MUT
            let page = try await SearchClient.page(client, "道味好")
            // validate
            #expect(page.items.isEmpty)
            #expect(page.raw["approximate"] as? Bool == false)
        }
    }

    @Test func theRowsReadStayWithinTheBudgetAndItsLastStep() async throws {
        try await TestApp.run { client, app in
            _ = try await Self.make(client, app)
            for budget in [5, 10, 20, 40, 1000] {
                // MUT
                let rows = try await app.database.query(
                    """
                    SELECT out_count, out_approximate FROM search_page('好味道', NULL, NULL, NULL, NULL, NULL, 21, \(budget)::int)
                    WHERE out_id IS NULL
                    """)
                var read = -1
                var approximate = false
                for row in rows { (read, approximate) = try row.decode((Int, Bool).self) }
                // validate: a quarter more fills the page; the last step past a check reads a store's pair and row
                #expect(read >= 0 && read <= budget + budget / 4 + 3, "budget \(budget): read \(read)")
                if budget == 5 { #expect(approximate) }
                if budget == 1000 { #expect(!approximate) }
            }
        }
    }
}
