import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The store page's "N 条未推荐的评价" and the page it links to (issue #48).
@Suite struct WebNotRecommendedTests {
    @Test func theStorePageLinksToItsReviewsNotRecommendedWhileItHasAny() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let judged = try RecommendedFixture.id(try await world.review(1, "刷的评价"))
            let browser = WebBrowser(client)
            let before = try await browser.get("/stores/\(world.storeID)").text
            #expect(!before.contains("未推荐的评价"))
            // MUT
            try await RecommendedFixture.judge(app, judged, recommended: false)
            // validate
            let page = try await browser.get("/stores/\(world.storeID)").text
            #expect(page.contains("1 条未推荐的评价"))
            #expect(page.contains("/stores/\(world.storeID)/not-recommended"))
            #expect(!page.contains("刷的评价"))
            let listed = try await browser.get("/stores/\(world.storeID)/not-recommended")
            #expect(listed.status == .ok && listed.text.contains("刷的评价"))
            let english = try await WebBrowser(client, language: "en").get("/stores/\(world.storeID)").text
            #expect(english.contains("1 reviews not recommended"))
        }
    }
}
