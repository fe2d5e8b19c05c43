import Foundation
import Testing

@testable import ChidianClient

/// 精选展示: the daily promotions on top and the featured feed below, which learns from the reviews opened.
@Suite(Demo.needsServer) struct ShowcaseScreenTests {
    @Test func dailyPromotionsArePromotedStores() async throws {
        let client = try Demo.client()
        // MUT
        let stores = try await client.dailyPromotions()
        let three = try await client.dailyPromotions(limit: 3)
        // validate: the demo data promotes 12 stores; the default shows 10, highest spend first
        #expect(stores.count == 10)
        #expect(stores.filter { !$0.promoted }.isEmpty)
        #expect(Set(stores.map(\.id)).count == stores.count)
        #expect(three.map(\.id) == Array(stores.prefix(3)).map(\.id))
        let refused = try await Demo.refusal { try await client.dailyPromotions(limit: 0) }
        #expect(refused.code == .invalidLimit && refused.status == 400)
    }

    @Test func pullToRefreshAfterOpeningReviewsPutsTheirCategoryFirst() async throws {
        let client = try Demo.client()
        let first = try await client.featuredPage(limit: 10)
        #expect(first.items.count == 10)
        #expect(first.personalization.categories.isEmpty, "a new visitor has no clicks")
        #expect(first.nextCursor != nil)
        // A category the newest reviews do not start with, so the refresh visibly changes the order, and a store of
        // it with reviews to open (other suites open stores without any meanwhile).
        var picked: (categoryId: String, store: Store)?
        for category in try await client.categories() where category.id != first.items.first?.store.category.id {
            if let store = try await client.stores(category: category.id).first(50).first(where: {
                $0.rating.count >= 2
            }) {
                picked = (category.id, store)
                break
            }
        }
        let (categoryId, store) = try #require(picked)
        let reviews = try await client.comments(ofStore: store.id, kind: .review).first(2)
        #expect(reviews.count == 2)
        // MUT: open the reviews (each open counts as a click for this visitor), then pull to refresh
        for review in reviews { _ = try await client.comment(review.id) }
        // timing: the server learns beside the request and the contract lets a viewer's interests lag 5 s, so the
        // refresh is pulled again until both opens show (the first alone may already lead: waiting for the lead
        // only once read one click of two); the bound is only there so a broken server fails, not hangs
        var refreshed = try await client.featuredPage(limit: 10)
        var interests = try await client.interests()
        let deadline = ContinuousClock.now + .seconds(60)
        while interests.first?.clicks != reviews.count || refreshed.personalization.categories.first?.id != categoryId,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(250))
            interests = try await client.interests()
            refreshed = try await client.featuredPage(limit: 10)
        }
        // validate
        #expect(interests.first?.category.id == categoryId)
        #expect(interests.first?.clicks == reviews.count)
        #expect(refreshed.personalization.categories.first?.id == categoryId)
        #expect(refreshed.items.first?.store.category.id == categoryId)
    }

    @Test func theFeedPagesNeverRepeatAReview() async throws {
        let client = try Demo.client()
        // MUT: follow the cursor through the first 60 reviews, 25 a page
        let reviews = try await client.featuredFeed(pageSize: 25).first(60)
        // validate
        #expect(reviews.count == 60)
        #expect(Set(reviews.map(\.id)).count == 60)
    }
}
