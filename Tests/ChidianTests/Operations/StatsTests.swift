import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct StatsTests {
    @Test func countsAndLeadersOfASeededDatabase() async throws {
        try await TestApp.run { _, app in
            _ = try await SeedImporter(database: app.database, config: app.services.config).run(
                directory: try SeedFixture().write())
            // MUT
            let stats = try await Stats.load(app.database, top: 2)
            // validate
            #expect(stats.counts.users == 4 && stats.counts.managers == 2 && stats.counts.admins == 0)
            #expect(stats.counts.stores == 3 && stats.counts.categories == 3)
            #expect(stats.counts.reviews == 3 && stats.counts.notices == 1)
            #expect(stats.counts.favorites == 3 && stats.counts.adSpend == 350 && stats.counts.promotions == 2)
            #expect(stats.topBySpend.map(\.id) == ["s001", "s003"])
            // s003: one 4 → (4 + 3.5·5)/6 ≈ 3.58; s001: 5 and 3 → (8 + 17.5)/7 ≈ 3.64.
            #expect(stats.topByRating.map(\.id) == ["s001", "s003"])
            #expect(stats.description.contains("top stores by ad spend:\n  1. 蜀香火锅 [s001] 300"))
        }
    }
}
