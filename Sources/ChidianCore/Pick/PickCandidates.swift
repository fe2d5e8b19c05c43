import Foundation
import PostgresNIO

/// What `GET /v1/pick` may answer: the stores that pass every rule, with what ranking needs.
package struct PickCandidates: Sendable {
    package let database: Database

    /// The rules of a pick, checked before it is read.
    package struct Rules: Sendable {
        package var near: NearQuery?
        package var maxPrice: Int?
        package var categoryID: String?
        package var skip: [String]
        /// A signed-in viewer's id: stores they reviewed in the last 30 days are left out.
        var reviewerID: String?
        /// The viewer's interest key: stores that viewers of their recent stores also opened rank higher.
        var viewerKey: String? = nil
        package var now: Date
    }

    /// One qualifying store.
    package struct Candidate: Sendable, Equatable {
        package var id: String
        package var categoryID: String
        var ratingScore: Double
        package var favoriteCount: Int
        /// Metres from `near`, when given.
        package var distance: Double?
        /// The viewer favorited it.
        package var favorited: Bool
        /// Viewers it shares with the viewer's recent and favorite stores.
        package var covisits: Int = 0
    }

    /// How many qualifying stores ranking looks at: the nearest with a position (a KNN scan of the GiST index
    /// reads about this many rows however dense the city), else the best rated. The CASEs fold away once the
    /// statement is planned with its values, leaving one key the index can order by.
    package static let limit = 100
    static let reviewedWithin: TimeInterval = 30 * 86_400

    /// Live, open at `now` in its own zone, within the radius, at most the price (a store without one is left
    /// out then), in the category, not skipped and not reviewed by the viewer lately.
    package func read(_ rules: Rules) async throws -> [Candidate] {
        let (lat, lng, radius) = (rules.near?.point.lat, rules.near?.point.lng, rules.near.map { Double($0.radius) })
        let since = rules.now.addingTimeInterval(-Self.reviewedWithin)
        let rows = try await database.forReads.query(
            """
            WITH seeds AS (
                (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = \(rules.viewerKey)::text
                 ORDER BY o.opened_at DESC LIMIT \(StoreFeed.seeds))
                UNION
                (SELECT f.store_id FROM favorites f WHERE f.user_id = \(rules.reviewerID)::text
                 ORDER BY f.created_at DESC LIMIT \(StoreFeed.seeds))
            ), related AS (
                SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
                FROM seeds s CROSS JOIN LATERAL (
                    SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
                    ORDER BY c.viewers DESC, c.other_id DESC LIMIT \(StoreFeed.perSeed)) x
                GROUP BY x.other_id
            )
            SELECT p.*, coalesce(r.covisits, 0) FROM (
            SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
                CASE WHEN \(lat)::float8 IS NULL THEN NULL ELSE ST_Distance(s.location,
                    ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography, false) END,
                \(rules.reviewerID)::text IS NOT NULL
                    AND EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = \(rules.reviewerID)::text AND f.store_id = s.id)
            FROM stores s
            WHERE s.archived_at IS NULL
                AND s.open_minutes @> store_week_minute(\(rules.now)::timestamptz, s.time_zone)
                AND (\(lat)::float8 IS NULL OR ST_DWithin(s.location,
                    ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography, \(radius)::float8, false))
                AND (\(rules.maxPrice)::int IS NULL OR s.price_per_person <= \(rules.maxPrice)::int)
                AND (\(rules.categoryID)::text IS NULL OR s.category_id = \(rules.categoryID)::text)
                AND NOT (s.id = ANY(\(rules.skip)::text[]))
                AND (\(rules.reviewerID)::text IS NULL OR NOT EXISTS (
                    SELECT 1 FROM comments c
                    WHERE c.author_id = \(rules.reviewerID)::text AND c.store_id = s.id AND c.kind = 'review'
                        AND c.created_at > \(since)::timestamptz))
            ORDER BY CASE WHEN \(lat)::float8 IS NULL THEN -s.rating_score ELSE s.location <-> ST_SetSRID(
                    ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography END,
                CASE WHEN \(lat)::float8 IS NULL THEN s.id END DESC
            LIMIT \(Self.limit)
            ) p LEFT JOIN related r ON r.id = p.id
            """)
        return try rows.map { row in
            let (id, category, score, favorites, distance, favorited, covisits) = try row.decodeAll(
                (String, String, Double, Int, Double?, Bool, Int).self)
            return Candidate(
                id: id, categoryID: category, ratingScore: score, favoriteCount: favorites, distance: distance,
                favorited: favorited, covisits: covisits)
        }
    }

    package init(database: Database) {
        self.database = database
    }
}
