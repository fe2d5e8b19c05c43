import Foundation
import PostgresNIO

/// 猜你喜欢 (`GET /v1/feed/stores`): stores for this viewer. Candidates come from one statement: stores that
/// viewers of the viewer's recent and favorite stores also opened, the best-rated stores of the viewer's top
/// categories and the best-rated stores overall, or with `near`, the nearest stores in the radius. Ranking is
/// `StoreFeed.rank`, pure, so the evaluation runs it too.
package struct StoreFeed: Sendable {
    package let database: Database

    /// One candidate store with what ranking weighs.
    package struct Candidate: Sendable, Equatable {
        package var id: String
        package var categoryID: String
        var ratingScore: Double
        package var favoriteCount: Int
        package var distance: Double?
        /// Viewers shared with the viewer's recent and favorite stores.
        package var covisits: Int
        /// Already the viewer's: a favorite, or reviewed in the last 30 days. Left out.
        package var known: Bool
    }

    /// The viewer's most recent stores that seed "also opened", and how many of each seed's neighbours; the top
    /// categories' and everyone's best; the nearest. The pool is about 200 stores: the statement's cost is linear
    /// in it (700 stores took 7.8 ms at 1M reviews, 200 about 2).
    static let seeds = 10
    static let perSeed = 12
    package static let categories = 3
    package static let perCategory = 12
    package static let best = 30
    package static let nearest = 100

    package func candidates(
        viewer: String?, userID: String?, categories: [String], near: NearQuery?, at now: Date
    ) async throws -> [Candidate] {
        let since = now.addingTimeInterval(-PickCandidates.reviewedWithin)
        if let near {
            return try await database.forReads.run(
                Near(viewer: viewer, userID: userID, near: near, since: since))
        }
        return try await database.forReads.run(
            Taste(viewer: viewer, userID: userID, categories: categories, since: since))
    }

    /// The viewer's seeds, the stores their viewers also opened, and the viewer's own stores ($1 viewer key, $2
    /// user id, $3 the time "lately" starts).
    package static let common = """
        WITH seeds AS (
            (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = $1
             ORDER BY o.opened_at DESC LIMIT \(seeds))
            UNION
            (SELECT f.store_id FROM favorites f WHERE f.user_id = $2
             ORDER BY f.created_at DESC LIMIT \(seeds))
        ), related AS (
            SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
            FROM seeds s CROSS JOIN LATERAL (
                SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
                ORDER BY c.viewers DESC, c.other_id DESC LIMIT \(perSeed)) x
            GROUP BY x.other_id
        ), known AS (
            -- The viewer's own: favorites and stores reviewed lately (the author index is partial on hidden_at).
            SELECT f.store_id FROM favorites f WHERE f.user_id = $2
            UNION
            SELECT c.store_id FROM comments c
            WHERE c.author_id = $2 AND c.hidden_at IS NULL AND c.kind = 'review' AND c.created_at > $3
        )
        """

    /// Without `near`: related stores, the best of the viewer's top categories ($4) and the best overall.
    /// Prepared, as every statement of the feeds (planning took longer than running).
    package struct Taste: PostgresPreparedStatement {
        package static let name = "stores_for_you"
        package static let sql =
            common + """
                , pool AS (
                    SELECT id FROM related
                    UNION
                    SELECT y.id FROM unnest($4::text[]) AS k (id) CROSS JOIN LATERAL (
                        SELECT t.id FROM stores t WHERE t.category_id = k.id AND t.archived_at IS NULL
                        ORDER BY t.rating_score DESC, t.id DESC LIMIT \(perCategory)) y
                    UNION
                    SELECT b.id FROM (
                        SELECT t.id FROM stores t WHERE t.archived_at IS NULL
                        ORDER BY t.rating_score DESC, t.id DESC LIMIT \(best)) b
                )
                SELECT s.id, s.category_id, s.rating_score, s.favorite_count, NULL::float8,
                    coalesce(r.covisits, 0), s.id IN (SELECT k.store_id FROM known k)
                FROM pool p JOIN stores s ON s.id = p.id LEFT JOIN related r ON r.id = s.id
                WHERE s.archived_at IS NULL
                """
        package static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz, .textArray]

        package var viewer: String?
        package var userID: String?
        package var categories: [String]
        package var since: Date

        package func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(viewer)
            bindings.append(userID)
            bindings.append(since)
            bindings.append(categories)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Candidate { try StoreFeed.decode(row) }
    }

    /// With `near` ($4 lat, $5 lng, $6 radius): the nearest stores in the radius, and related stores in it.
    struct Near: PostgresPreparedStatement {
        package static let name = "stores_for_you_near"
        package static let sql =
            common + """
                , pool AS (
                    SELECT id FROM related
                    UNION
                    SELECT n.id FROM (
                        SELECT t.id FROM stores t
                        WHERE t.archived_at IS NULL
                            AND ST_DWithin(t.location, ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography, $6, false)
                        ORDER BY t.location <-> ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography
                        LIMIT \(nearest)) n
                )
                SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
                    ST_Distance(s.location, ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography, false),
                    coalesce(r.covisits, 0), s.id IN (SELECT k.store_id FROM known k)
                FROM pool p JOIN stores s ON s.id = p.id LEFT JOIN related r ON r.id = s.id
                WHERE s.archived_at IS NULL
                    AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography, $6, false)
                """
        static let bindingDataTypes: [PostgresDataType] = [
            .text, .text, .timestamptz, .float8, .float8, .float8,
        ]

        package var viewer: String?
        package var userID: String?
        package var near: NearQuery
        package var since: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(viewer)
            bindings.append(userID)
            bindings.append(since)
            bindings.append(near.point.lat)
            bindings.append(near.point.lng)
            bindings.append(Double(near.radius))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Candidate { try StoreFeed.decode(row) }
    }

    package static func decode(_ row: PostgresRow) throws -> Candidate {
        let (id, category, rating, favorites, distance, covisits, known) = try row.decodeAll(
            (String, String, Double, Int, Double?, Int, Bool).self)
        return Candidate(
            id: id, categoryID: category, ratingScore: rating, favoriteCount: favorites, distance: distance,
            covisits: covisits, known: known)
    }

    /// A candidate's worth: the viewer's interest in its category (relative to their strongest), how many viewers
    /// it shares with the viewer's stores (relative to the most shared), rating, popularity and nearness.
    package static func worth(_ candidate: Candidate, interests: [String: Double], maxCovisits: Int, radius: Double?)
        -> Double
    {
        var worth = 2 * (interests[candidate.categoryID] ?? 0)
        if maxCovisits > 0 { worth += 1.5 * Double(candidate.covisits) / Double(maxCovisits) }
        worth += candidate.ratingScore - 3.5
        worth += 0.2 * log1p(Double(candidate.favoriteCount))
        if let distance = candidate.distance, let radius, radius > 0 { worth += 1 - min(1, distance / radius) }
        return worth
    }

    /// The viewer's list: known stores left out, by worth, at most three of a category among the first ten.
    package static func rank(_ candidates: [Candidate], interests: [String: Double], radius: Double?, limit: Int)
        -> [String]
    {
        let fresh = candidates.filter { !$0.known }
        let most = fresh.map(\.covisits).max() ?? 0
        let ranked = fresh.map { ($0, worth($0, interests: interests, maxCovisits: most, radius: radius)) }
            .sorted { ($0.1, $0.0.id) > ($1.1, $1.0.id) }.map(\.0)
        let head = FeedPlanner.diverse(
            ranked, category: \.categoryID, id: \.id, count: min(limit, FeedPlanner.coldPlaces))
        let chosen = Set(head)
        return head + ranked.lazy.map(\.id).filter { !chosen.contains($0) }.prefix(max(0, limit - head.count))
    }

    package init(database: Database) {
        self.database = database
    }
}
