import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Verdicts for the recommended suites (issue #48): the judge's, written beside the server as phase 2's will be,
/// and what a store shows and keeps.
enum RecommendedFixture {
    /// The judge's verdict: one plain update, then the server hears of it.
    static func judge(_ app: TestApp, _ id: String, recommended: Bool) async throws {
        _ = try await app.database.query("UPDATE comments SET recommended = \(recommended) WHERE id = \(id)")
        await app.settle()
    }

    static func store(_ client: any TestClientProtocol, _ id: String) async throws -> StoreView {
        try await client.send(.get, "/v1/stores/\(id)?track=false").decode(StoreView.self)
    }

    static func id(_ json: [String: Any]) throws -> String {
        try #require(json["id"] as? String)
    }

    /// Every aggregate the triggers keep on the store, as text.
    static func kept(_ app: TestApp, _ storeID: String) async throws -> String {
        try await app.database.query(
            """
            SELECT concat_ws(' ', review_count, rating_count, rating_sum, taste_count, taste_sum, environment_count,
                environment_sum, service_count, service_sum, price_count, price_sum, not_recommended_count,
                dish_names::text, dish_counts::text,
                (SELECT string_agg(comment_id, ',' ORDER BY author_id) FROM store_raters WHERE store_id = s.id))
            FROM stores s WHERE id = \(storeID)
            """)[0].decode(String.self)
    }

    /// The same aggregates counted again from the comments, from scratch.
    static func recounted(_ app: TestApp, _ storeID: String) async throws -> String {
        _ = try await app.database.query("SELECT search_rebuild(ARRAY[\(storeID)], false)")
        _ = try await app.database.query("SELECT store_aggregates_recount(ARRAY[\(storeID)])")
        _ = try await app.database.query("SELECT store_dishes_recount(\(storeID))")
        return try await kept(app, storeID)
    }

    /// The store keeps what counting from scratch gives.
    static func expectExact(_ app: TestApp, _ storeID: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let kept = try await kept(app, storeID)
        let recounted = try await recounted(app, storeID)
        #expect(kept == recounted, sourceLocation: sourceLocation)
    }
}
