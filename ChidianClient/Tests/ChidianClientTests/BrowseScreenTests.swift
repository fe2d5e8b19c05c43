import Foundation
import Testing

@testable import ChidianClient

/// Search, a store page with its reviews, and a review page.
@Suite(Demo.needsServer) struct BrowseScreenTests {
    @Test func searchFindsStoresByNameAndByPinyin() async throws {
        let client = try Demo.client()
        // MUT
        let byName = try await client.search("火锅").first(50)
        let byPinyin = try await client.search("huoguo").first(50)
        // validate
        #expect(byName.contains { $0.store.name.contains("火锅") && $0.matches.contains { $0.field == .name } })
        #expect(Set(byName.map(\.store.id)).isSuperset(of: byPinyin.map(\.store.id)))
        #expect(!byPinyin.isEmpty)
        let blank = try await Demo.refusal { try await client.search("  ").first(1) }
        #expect(blank.code == .queryRequired && blank.status == 400)
    }

    @Test func aStorePageAndItsReviewsPageByPage() async throws {
        let client = try Demo.client()
        // The best rated store no other suite writes to (they review s001 and s002, favorite s003 and s005).
        let listed = try #require(
            try await client.stores(sort: .rating).first(10).first {
                !["s001", "s002", "s003", "s005"].contains($0.id)
            })
        // MUT
        let store = try await client.store(listed.id)
        let reviews = try await client.comments(ofStore: store.id, kind: .review, pageSize: 3).first(1_000)
        // validate: every page followed, no review twice, as many as the rating counts
        #expect(store.id == listed.id && store.name == listed.name)
        #expect(store.imageUrls.filter { !$0.hasPrefix("/v1/images/") }.isEmpty)
        #expect(reviews.count == store.rating.count)
        #expect(Set(reviews.map(\.id)).count == reviews.count)
        let foreign = reviews.filter { $0.kind != .review || $0.storeId != store.id || $0.rating == nil }
        #expect(foreign.isEmpty)
        let missing = try await Demo.refusal { try await client.store("s_no_such_store") }
        #expect(missing.code == .storeNotFound && missing.status == 404 && missing.requestId?.isEmpty == false)
    }

    @Test func aReviewPage() async throws {
        let client = try Demo.client()
        let listed = try #require(try await client.comments(ofStore: "s001", kind: .review).first(1).first)
        // MUT
        let review = try await client.comment(listed.id, track: false)
        // validate
        #expect(review.id == listed.id && review.body == listed.body && review.version >= 1)
        #expect(review.store.id == "s001" && !review.author.name.isEmpty)
        #expect(try await client.interests().isEmpty, "track: false is not a click")
        let missing = try await Demo.refusal { try await client.comment("c_no_such_comment") }
        #expect(missing.code == .commentNotFound && missing.status == 404)
    }
}
