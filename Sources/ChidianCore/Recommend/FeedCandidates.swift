import Foundation
import PostgresNIO

/// Reviews the feed sets into its first places: recent reviews of every category (cold start's and a mixed page's).
package struct FeedCandidates: Sendable {
    package let database: Database
    /// Each category's newest reviews, cached (issue #45); nil reads PostgreSQL every time.
    package let lists: FeedLists?

    /// How many of each category's newest reviews cold start weighs (without `near`).
    package static let perCategory = 8
    /// With `near`: the nearest stores, and each one's newest reviews.
    static let nearStores = 60
    static let perStore = 3

    /// A recent review with what cold start ranks it by.
    package struct Review: Sendable, Equatable {
        package var id: String
        package var categoryID: String
        package var likes: Int
        package var rating: Int
        package var ageDays: Double
        package var storeRating: Double
        package var distance: Double?

        package init(
            id: String, categoryID: String, likes: Int, rating: Int, ageDays: Double, storeRating: Double,
            distance: Double? = nil
        ) {
            self.id = id
            self.categoryID = categoryID
            self.likes = likes
            self.rating = rating
            self.ageDays = ageDays
            self.storeRating = storeRating
            self.distance = distance
        }
    }

    /// Without `near`, each category's newest reviews (one index range per category); with it, the newest
    /// reviews of the nearest live stores within the radius (a KNN scan, then one range per store).
    package func coldStart(near: NearQuery?, at now: Date) async throws -> [Review] {
        let rows: [PostgresRow]
        if let near {
            rows = try await database.forReads.query(
                """
                SELECT x.id, x.category_id, x.like_count, x.rating, x.created_at, s.rating_score, s.meters
                FROM (
                    SELECT t.id, t.rating_score, ST_Distance(t.location, p.point, false) AS meters
                    FROM stores t, (SELECT ST_SetSRID(ST_MakePoint(\(near.point.lng)::float8,
                        \(near.point.lat)::float8), 4326)::geography AS point) p
                    WHERE t.archived_at IS NULL
                        AND ST_DWithin(t.location, p.point, \(Double(near.radius))::float8, false)
                    ORDER BY t.location <-> p.point
                    LIMIT \(Self.nearStores)
                ) s CROSS JOIN LATERAL (
                    SELECT c.id, c.category_id, c.like_count, c.rating, c.created_at FROM comments c
                    WHERE c.store_id = s.id AND c.hidden_at IS NULL AND c.kind = 'review' AND NOT c.store_archived AND c.recommended
                    ORDER BY c.created_at DESC, c.id DESC LIMIT \(Self.perStore)
                ) x
                """)
        } else {
            if let composed = try await composedColdStart(at: now) { return composed }
            return try await database.forReads.run(ColdStart(at: now))
        }
        return try rows.map { row in
            let (id, category, likes, rating, createdAt, storeRating, distance) = try row.decodeAll(
                (String, String, Int, Int, Date, Double, Double?).self)
            return Review(
                id: id, categoryID: category, likes: likes, rating: rating, ageDays: Self.ageDays(createdAt, at: now),
                storeRating: storeRating, distance: distance)
        }
    }

    /// Every anonymous first page runs it: prepared.
    struct ColdStart: PostgresPreparedStatement {
        package static let name = "feed_cold_start"
        package static let sql = """
            SELECT x.id, x.category_id, x.like_count, x.rating, x.created_at, s.rating_score
            FROM categories k CROSS JOIN LATERAL (
                SELECT c.id, c.category_id, c.like_count, c.rating, c.created_at, c.store_id FROM comments c
                WHERE c.category_id = k.id AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                ORDER BY c.created_at DESC, c.id DESC LIMIT \(perCategory)
            ) x JOIN stores s ON s.id = x.store_id
            """
        static let bindingDataTypes: [PostgresDataType] = []

        package var at: Date

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }

        func decodeRow(_ row: PostgresRow) throws -> Review {
            let (id, category, likes, rating, createdAt, storeRating) = try row.decodeAll(
                (String, String, Int, Int, Date, Double).self)
            return Review(
                id: id, categoryID: category, likes: likes, rating: rating,
                ageDays: FeedCandidates.ageDays(createdAt, at: at),
                storeRating: storeRating, distance: nil)
        }
    }

    package init(database: Database, lists: FeedLists? = nil) {
        self.database = database
        self.lists = lists
    }

    /// Days from `createdAt` to `now`, never negative: computed here for every path, so the cached lists and the
    /// statements weigh a review alike, to the bit.
    static func ageDays(_ createdAt: Date, at now: Date) -> Double {
        max(0, now.timeIntervalSince(createdAt) / 86_400)
    }

    /// Cold start's candidates from the cached lists: each category's first `perCategory`; nil while the cache
    /// is not live.
    func composedColdStart(at now: Date) async throws -> [Review]? {
        guard let everyone = try await lists?.everyone() else { return nil }
        var reviews: [Review] = []
        reviews.reserveCapacity(everyone.lists.count * Self.perCategory)
        for (category, list) in zip(everyone.categories, everyone.lists) {
            for index in list.ids.indices.prefix(Self.perCategory) {
                reviews.append(
                    Review(
                        id: list.ids[index], categoryID: category, likes: list.likes[index],
                        rating: list.ratings[index], ageDays: Self.ageDays(list.createdAt[index], at: now),
                        storeRating: list.storeRatings[index]))
            }
        }
        return reviews
    }
}
