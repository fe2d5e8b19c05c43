import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A new review moves its store's aggregates and signature dishes incrementally (015); edits, hides and deletes
/// recount. After any sequence of writes the kept values must equal what a full recount from the reviews gives.
@Suite struct StoreAggregateRecountTests {
    /// Everything a store keeps about its reviews, as one comparable text.
    static func kept(_ database: Database, _ storeID: String) async throws -> String {
        try await database.query(
            """
            SELECT concat_ws(' ', review_count, rating_count, rating_sum, taste_count, taste_sum, environment_count,
                   environment_sum, service_count, service_sum, price_count, price_sum, dish_names::text,
                   dish_counts::text)
            FROM stores WHERE id = \(storeID)
            """
        ).first?.decode(String.self) ?? ""
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func keptAggregatesEqualARecountAfterEveryWrite(seed: UInt64) async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let database = app.database
            var authors: [String] = []
            for n in 0..<5 { authors.append(try await client.register("算账\(seed)_\(n)").id) }
            // Two- and three-character dishes of the catalogue, and text that mentions none.
            let phrases = ["毛肚", "虾饺", "肠粉", "水煮鱼", "叉烧", "鸭肠", "很好吃", "一般"]
            var random = SeededRandom(seed: seed)
            var ids: [String] = []
            for step in 0..<120 {
                let choice = ids.isEmpty ? 0 : random.below(10)
                let body = (0..<random.between(1, 3)).map { _ in phrases[random.below(phrases.count)] }.joined()
                switch choice {
                case 0..<6:  // a review; now and then dated before the author's others
                    let author = authors[random.below(authors.count)]
                    let rating = random.between(1, 5)
                    let taste: Int? = random.chance(0.7) ? random.between(1, 5) : nil
                    let price: Int? = random.chance(0.6) ? random.between(20, 300) : nil
                    let age = random.chance(0.2) ? random.between(1, 1000) : 0
                    let id = try await database.query(
                        """
                        INSERT INTO comments (store_id, author_id, kind, rating, taste, price_per_person, body, created_at)
                        VALUES (\(world.storeID), \(author), 'review', \(rating), \(taste), \(price), \(body),
                                now() - \(age) * interval '1 minute')
                        RETURNING id
                        """
                    ).first!.decode(String.self)
                    ids.append(id)
                case 6:  // an edit of text and scores
                    try await database.query(
                        "UPDATE comments SET body = \(body), rating = \(random.between(1, 5)) WHERE id = \(ids[random.below(ids.count)])"
                    )
                case 7:  // hidden
                    try await database.query(
                        "UPDATE comments SET hidden_at = now() WHERE id = \(ids[random.below(ids.count)])")
                case 8:  // shown again
                    try await database.query(
                        "UPDATE comments SET hidden_at = NULL WHERE id = \(ids[random.below(ids.count)])")
                default:  // deleted
                    let id = ids.remove(at: random.below(ids.count))
                    try await database.query("DELETE FROM comments WHERE id = \(id)")
                }
                // validate: a full recount changes nothing
                let before = try await Self.kept(database, world.storeID)
                try await database.query(
                    "SELECT store_aggregates_recount(ARRAY[\(world.storeID)]), store_dishes_recount(\(world.storeID))")
                let after = try await Self.kept(database, world.storeID)
                #expect(before == after, "seed \(seed), step \(step), write \(choice)")
                if before != after { return }
            }
            // and the sequence exercised the aggregates
            #expect(try await Self.kept(database, world.storeID).hasPrefix("0 ") == false)
        }
    }
}
