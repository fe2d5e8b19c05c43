import Foundation
import PostgresNIO

/// 猜你喜欢 (`GET /v1/feed/stores`): stores for this viewer. Candidates come from one statement: stores that
/// viewers of the viewer's recent and favorite stores also opened, the best-rated stores of the viewer's top
/// categories and the best-rated stores overall, or with `near`, the nearest stores in the radius. Ranking is
/// `StoreFeed.rank`, pure, so the evaluation runs it too.
struct StoreFeed: Sendable {
    let database: Database

    /// One candidate store with what ranking weighs.
    struct Candidate: Sendable, Equatable {
        var id: String
        var categoryID: String
        var ratingScore: Double
        var favoriteCount: Int
        var distance: Double?
        /// Viewers shared with the viewer's recent and favorite stores.
        var covisits: Int
        /// Already the viewer's: a favorite, or reviewed in the last 30 days. Left out.
        var known: Bool
    }

    /// The viewer's most recent stores that seed "also opened".
    static let seeds = 20
    static let perSeed = 30
    static let perCategory = 20
    static let best = 60
    static let nearest = 150

    func candidates(
        viewer: String?, userID: String?, categories: [String], near: NearQuery?, at now: Date
    ) async throws -> [Candidate] {
        let (lat, lng, radius) = (near?.point.lat, near?.point.lng, near.map { Double($0.radius) })
        let since = now.addingTimeInterval(-PickCandidates.reviewedWithin)
        let rows = try await database.forReads.query(
            """
            WITH seeds AS (
                (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = \(viewer)::text
                 ORDER BY o.opened_at DESC LIMIT \(Self.seeds))
                UNION
                (SELECT f.store_id FROM favorites f WHERE f.user_id = \(userID)::text
                 ORDER BY f.created_at DESC LIMIT \(Self.seeds))
            ), related AS (
                SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
                FROM seeds s CROSS JOIN LATERAL (
                    SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
                    ORDER BY c.viewers DESC, c.other_id DESC LIMIT \(Self.perSeed)) x
                GROUP BY x.other_id
            ), pool AS (
                SELECT id FROM related
                UNION
                SELECT n.id FROM (
                    SELECT t.id FROM stores t
                    WHERE \(lat)::float8 IS NOT NULL AND t.archived_at IS NULL
                        AND ST_DWithin(t.location, ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography,
                            \(radius)::float8, false)
                    ORDER BY t.location <-> ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography
                    LIMIT \(Self.nearest)) n
                UNION
                SELECT y.id FROM unnest(\(categories)::text[]) AS k (id) CROSS JOIN LATERAL (
                    SELECT t.id FROM stores t WHERE t.category_id = k.id AND t.archived_at IS NULL
                    ORDER BY t.rating_score DESC, t.id DESC LIMIT \(Self.perCategory)) y
                WHERE \(lat)::float8 IS NULL
                UNION
                SELECT b.id FROM (
                    SELECT t.id FROM stores t WHERE \(lat)::float8 IS NULL AND t.archived_at IS NULL
                    ORDER BY t.rating_score DESC, t.id DESC LIMIT \(Self.best)) b
            ), known AS (
                -- The viewer's own: favorites and stores reviewed lately (the author index is partial on hidden_at).
                SELECT f.store_id FROM favorites f WHERE f.user_id = \(userID)::text
                UNION
                SELECT c.store_id FROM comments c
                WHERE c.author_id = \(userID)::text AND c.hidden_at IS NULL AND c.kind = 'review'
                    AND c.created_at > \(since)::timestamptz
            )
            SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
                CASE WHEN \(lat)::float8 IS NULL THEN NULL ELSE ST_Distance(s.location,
                    ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography, false) END,
                coalesce(r.covisits, 0), s.id IN (SELECT k.store_id FROM known k)
            FROM pool p JOIN stores s ON s.id = p.id LEFT JOIN related r ON r.id = s.id
            WHERE s.archived_at IS NULL
                AND (\(lat)::float8 IS NULL OR ST_DWithin(s.location,
                    ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography, \(radius)::float8, false))
            """)
        return try rows.map { row in
            let (id, category, rating, favorites, distance, covisits, known) = try row.decodeAll(
                (String, String, Double, Int, Double?, Int, Bool).self)
            return Candidate(
                id: id, categoryID: category, ratingScore: rating, favoriteCount: favorites, distance: distance,
                covisits: covisits, known: known)
        }
    }

    /// A candidate's worth: the viewer's interest in its category (relative to their strongest), how many viewers
    /// it shares with the viewer's stores (relative to the most shared), rating, popularity and nearness.
    static func worth(_ candidate: Candidate, interests: [String: Double], maxCovisits: Int, radius: Double?) -> Double
    {
        var worth = 2 * (interests[candidate.categoryID] ?? 0)
        if maxCovisits > 0 { worth += 1.5 * Double(candidate.covisits) / Double(maxCovisits) }
        worth += candidate.ratingScore - 3.5
        worth += 0.2 * log1p(Double(candidate.favoriteCount))
        if let distance = candidate.distance, let radius, radius > 0 { worth += 1 - min(1, distance / radius) }
        return worth
    }

    /// The viewer's list: known stores left out, by worth, at most three of a category among the first ten.
    static func rank(_ candidates: [Candidate], interests: [String: Double], radius: Double?, limit: Int) -> [String] {
        let fresh = candidates.filter { !$0.known }
        let most = fresh.map(\.covisits).max() ?? 0
        let ranked = fresh.map { ($0, worth($0, interests: interests, maxCovisits: most, radius: radius)) }
            .sorted { ($0.1, $0.0.id) > ($1.1, $1.0.id) }.map(\.0)
        let head = FeedPlanner.diverse(
            ranked, category: \.categoryID, id: \.id, count: min(limit, FeedPlanner.coldPlaces))
        let chosen = Set(head)
        return head + ranked.lazy.map(\.id).filter { !chosen.contains($0) }.prefix(max(0, limit - head.count))
    }
}
