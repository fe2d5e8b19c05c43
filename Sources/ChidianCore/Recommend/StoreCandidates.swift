import Foundation
import PostgresNIO

/// The stores the pick and 猜你喜欢 choose among, read by one statement in three parts: what the viewer's history
/// says (`evidence`: the stores that viewers of their recent and favorite stores also opened, their favorites and
/// the stores they reviewed lately), a pool of stores, and each candidate's columns (`columns`). Only the pool
/// differs: the pick's qualifying stores, or 猜你喜欢's related, best-of-category and best stores (or nearest).
package struct StoreCandidates: Sendable {
    package let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Who asks, and since when a review counts as lately.
    package struct Viewer: Sendable {
        /// The interest key (seeds "also opened").
        package var key: String?
        package var userID: String?
        package var since: Date

        package init(key: String?, userID: String?, now: Date) {
            self.key = key
            self.userID = userID
            self.since = now.addingTimeInterval(-StoreCandidates.reviewedWithin)
        }
    }

    /// One candidate with what ranking weighs.
    package struct Candidate: Sendable, Equatable {
        package var id: String
        package var categoryID: String
        var ratingScore: Double
        package var favoriteCount: Int
        /// Metres from `near`, when given.
        package var distance: Double?
        /// Viewers it shares with the viewer's recent and favorite stores.
        package var covisits: Int
        package var favorited: Bool
        /// The viewer reviewed it in the last 30 days.
        package var reviewedLately: Bool

        /// Already the viewer's: 猜你喜欢 leaves it out.
        package var known: Bool { favorited || reviewedLately }

        /// The near pool's order: metres ascending, then id descending in byte order.
        package static func nearestFirst(_ a: Candidate, _ b: Candidate) -> Bool {
            let (x, y) = (a.distance ?? 0, b.distance ?? 0)
            return x != y ? x < y : b.id.utf8.lexicographicallyPrecedes(a.id.utf8)
        }
    }

    static let reviewedWithin: TimeInterval = 30 * 86_400
    /// The viewer's most recent stores that seed "also opened", and how many of each seed's neighbours.
    static let seeds = 10
    static let perSeed = 12

    /// The evidence, on the viewer key `$1`, user id `$2` and the start of "lately" `$3`.
    static let evidence = """
        WITH seeds AS (
            (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = $1::text
             ORDER BY o.opened_at DESC LIMIT \(seeds))
            UNION
            (SELECT f.store_id FROM favorites f WHERE f.user_id = $2::text
             ORDER BY f.created_at DESC LIMIT \(seeds))
        ), related AS (
            SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
            FROM seeds s CROSS JOIN LATERAL (
                SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
                ORDER BY c.viewers DESC, c.other_id DESC LIMIT \(perSeed)) x
            GROUP BY x.other_id
        ), favorite AS (
            SELECT f.store_id FROM favorites f WHERE f.user_id = $2::text
        ), reviewed AS (
            -- The author index is partial on hidden_at.
            SELECT c.store_id, c.created_at FROM comments c
            WHERE c.author_id = $2::text AND c.hidden_at IS NULL AND c.kind = 'review' AND c.created_at > $3::timestamptz
        )
        """

    /// The candidates of `source`, stores as `s` (by default the ids of a `pool`); `meters` is the distance's SQL,
    /// `within` a condition on `s` (near's radius).
    static func columns(
        from source: String = "pool p JOIN stores s ON s.id = p.id", meters: String?, within: String?
    ) -> String {
        """
        SELECT s.id, s.category_id, s.rating_score, s.favorite_count, \(meters ?? "NULL::float8"),
            coalesce(r.covisits, 0), s.id IN (SELECT f.store_id FROM favorite f),
            s.id IN (SELECT v.store_id FROM reviewed v)
        FROM \(source) LEFT JOIN related r ON r.id = s.id
        WHERE s.archived_at IS NULL\(within.map { " AND " + $0 } ?? "")
        """
    }

    static func decode(_ row: PostgresRow) throws -> Candidate {
        let (id, category, rating, favorites, distance, covisits, favorited, reviewed) = try row.decodeAll(
            (String, String, Double, Int, Double?, Int, Bool, Bool).self)
        return Candidate(
            id: id, categoryID: category, ratingScore: rating, favoriteCount: favorites, distance: distance,
            covisits: covisits, favorited: favorited, reviewedLately: reviewed)
    }

    /// The pick's pool: how many qualifying stores ranking looks at, the nearest with `near` (a KNN scan of the
    /// GiST index reads about this many rows however dense the city), else the best rated.
    package static let pickLimit = 100

    /// The pick's candidates: live stores that pass `filter`, not reviewed by the viewer lately. Planned for its
    /// values on every call (the filters present vary), so each shape gets its own index path.
    package func qualifying(_ filter: StoreFilter, for viewer: Viewer) async throws -> [Candidate] {
        var sql = SQLBuilder()
        _ = (sql.bind(viewer.key), sql.bind(viewer.userID), sql.bind(viewer.since))
        let bound = filter.bind(&sql)
        // Near: the nearest by the sphere distance the near-me walk measures (`walked` composes the same pool),
        // stores at one address by id in byte order.
        let order =
            bound.point.map { "s.location <-> \($0), s.id COLLATE \"C\" DESC" } ?? "s.rating_score DESC, s.id DESC"
        let within = bound.placeMeters.map { " AND \($0) <= \(bound.radius ?? "0")" } ?? ""
        // The pool read with the columns ranking needs, not joined back to `stores` by id: that join cost a quarter
        // of the statement (100 index lookups) at a million reviews.
        let pool = """
            (SELECT s.id, s.category_id, s.rating_score, s.favorite_count, s.location, s.archived_at FROM stores s
             WHERE \(bound.conditions())\(within) AND NOT (s.id IN (SELECT v.store_id FROM reviewed v))
             ORDER BY \(order) LIMIT \(Self.pickLimit)) s
            """
        let rows = try await database.forReads.query(
            sql.query(Self.evidence + "\n" + Self.columns(from: pool, meters: bound.placeMeters, within: nil)))
        return try rows.map(Self.decode)
    }

    /// 猜你喜欢's candidates: related stores with the best of the viewer's top `categories` and the best overall,
    /// or with `near`, related stores and the nearest, all within the radius.
    package func forYou(categories: [String], near: NearQuery?, for viewer: Viewer) async throws -> [Candidate] {
        if let near {
            return try await database.forReads.run(Near(viewer: viewer, near: near))
        }
        return try await database.forReads.run(Taste(viewer: viewer, categories: categories))
    }
}
