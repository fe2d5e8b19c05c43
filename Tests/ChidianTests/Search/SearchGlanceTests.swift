import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A text counted in reviews that finds the search gate full answers a glance (the page read with an eighth of the
/// row budget, `approximate` when cut) instead of 503; only when the glances' own gate is full too is it 503 `busy`.
@Suite struct SearchGlanceTests {
    typealias Holder = AdmissionGateTests.Holder

    /// The app's search as `buildServices` makes it (one slot each, a second's wait), on the test's database and cache.
    static func repository(_ app: TestApp) -> SearchRepository {
        SearchRepository(
            database: app.database, stores: StoreRepository(database: app.database, cache: app.services.caching?.reads),
            budget: 96, gate: AdmissionGate(limit: 1, queue: 64, maxWait: .seconds(1), rest: 1),
            glances: AdmissionGate(limit: 1, queue: 64, maxWait: .seconds(1), rest: 1), caching: app.services.caching)
    }

    static func counts(_ hits: SearchRepository.Hits) -> [(String, Int)] {
        hits.hits.map { ($0.id, Int($0.textCount)) }
    }

    // A budget of 96 counts the fixture exactly; its glance reads 12 rows, which cut it (SearchBudgetTests).
    @Test func aFullGateAnswersAGlanceAndTheNextAskerTheWholePage() async throws {
        try await TestApp.run { client, app in
            _ = try await SearchBudgetTests.make(client, app)
            let truth = try await SearchBudgetTests.trueCounts(app, "好味道")
            let search = Self.repository(app)
            let query = try SearchQuery("好味道")
            let holder = Holder()
            async let held: Void = holder.hold(search.gate)
            try await holder.waitUntilInside()
            // MUT: the gate is full and nothing is cached for the text
            let glance = try await search.hits(query, page: PageRequest(limit: 20, cursor: nil))
            // validate: an answer, cut, whose counts are lower bounds
            #expect(glance.approximate)
            #expect(!glance.hits.isEmpty)
            for (id, count) in Self.counts(glance) { #expect(count >= 1 && count <= truth[id] ?? 0, "\(id): \(count)") }
            holder.letGo()
            try await held
            let whole = try await search.hits(query, page: PageRequest(limit: 20, cursor: nil))
            #expect(!whole.approximate)
            #expect(Self.counts(whole).count == truth.count)
            for (id, count) in Self.counts(whole) { #expect(count == truth[id], "\(id)") }
        }
    }

    @Test func withBothGatesFullTheSearchIsBusy() async throws {
        try await TestApp.run { client, app in
            _ = try await SearchBudgetTests.make(client, app)
            let search = Self.repository(app)
            let query = try SearchQuery("好味道")
            let holders = [Holder(), Holder()]
            async let first: Void = holders[0].hold(search.gate)
            async let second: Void = holders[1].hold(search.glances)
            for holder in holders { try await holder.waitUntilInside() }
            // MUT / validate: the database is still guarded from a flood of distinct texts (503 `busy`)
            await #expect(throws: AdmissionGate.Busy.self) {
                try await search.hits(query, page: PageRequest(limit: 20, cursor: nil))
            }
            for holder in holders { holder.letGo() }
            _ = try await (first, second)
            #expect(try await !search.hits(query, page: PageRequest(limit: 20, cursor: nil)).approximate)
        }
    }
}
