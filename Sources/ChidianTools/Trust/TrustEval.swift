import ChidianCore
import Foundation
import PostgresNIO

/// `chidian eval-trust` (docs/TRUST.md): writes a simulated population into a scratch database, judges it with
/// the product's own `TrustService` (the evidence queries, the judge, the verdict function and the aggregates'
/// triggers), and reads the target stores' ratings back. Thresholds are chosen by the rule written before the
/// held-out attack kind was run.
public struct TrustEval: Sendable {
    public var organicUsers = 600
    public var perKind = 3
    public var choosingSeeds: [UInt64] = [1, 2, 3]
    public var heldOutSeed: UInt64 = 4
    public var thresholds: [Double] = [2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5]
    public var groupWeights: [Double] = [0.5, 1.0, 1.5]

    public init() {}

    /// One setting's outcome on one world.
    public struct Outcome: Sendable {
        package var weights: TrustJudge.Weights
        public var organic = 0
        public var organicRecommended = 0
        public var firsts = 0
        public var firstsRecommended = 0
        /// Per attack kind: (shift without verdicts, shift with verdicts, attack reviews, recommended of them).
        public var shifts: [Int: [(without: Double, with: Double)]] = [:]
        public var attackReviews: [Int: (total: Int, recommended: Int)] = [:]

        var organicShare: Double { Double(organicRecommended) / Double(max(organic, 1)) }
        var firstsShare: Double { Double(firstsRecommended) / Double(max(firsts, 1)) }
        func worst(_ kind: Int) -> Double { shifts[kind]?.map(\.with).max() ?? 0 }
    }

    /// Builds the world of `seed` with `kinds` into `database` (empty, migrated).
    func write(_ world: TrustWorld, into database: Database) async throws {
        let u = world.users
        try await database.transaction { connection in
            let logger = database.logger
            try await connection.rows(
                "INSERT INTO users (id, name, password_hash, role) VALUES ('u_evalmgr', 'eval manager', '$2b$04$eval', 'manager')",
                logger: logger)
            try await connection.rows(
                """
                INSERT INTO users (id, name, password_hash, role, created_at, updated_at)
                SELECT id, id, '$2b$04$evaluationonlyxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'user', at, at
                FROM unnest(\(u.map(\.id))::text[], \(u.map(\.createdAt))::timestamptz[]) AS x (id, at)
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO trust_origins (user_id, origin, first_at)
                SELECT DISTINCT ON (id, trust_origin_hash(kind, value)) id, trust_origin_hash(kind, value), at
                FROM unnest(\(u.map(\.id) + u.map(\.id))::text[],
                            \(u.map { _ in "a" } + u.map { _ in "v" })::text[],
                            \(u.map(\.address) + u.map(\.device))::text[],
                            \(u.map(\.createdAt) + u.map(\.createdAt))::timestamptz[]) AS x (id, kind, value, at)
                """, logger: logger)
            try await connection.rows(
                "INSERT INTO categories (id, name) VALUES ('c_eval', 'eval')", logger: logger)
            try await connection.rows(
                """
                INSERT INTO stores (id, name, category_id, manager_id)
                SELECT id, id, 'c_eval', 'u_evalmgr' FROM unnest(\(world.stores)::text[]) AS x (id)
                """, logger: logger)
            let opens = world.opens
            try await connection.rows(
                """
                INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at, first_opened_at)
                SELECT 'u:' || u, s, max(last), min(first)
                FROM unnest(\(opens.map(\.user))::text[], \(opens.map(\.store))::text[],
                            \(opens.map(\.first))::timestamptz[], \(opens.map(\.last))::timestamptz[]) AS x (u, s, first, last)
                GROUP BY u, s
                """, logger: logger)
            let favorites = world.favorites
            try await connection.rows(
                """
                INSERT INTO favorites (user_id, store_id, created_at)
                SELECT DISTINCT ON (u, s) u, s, at
                FROM unnest(\(favorites.map(\.user))::text[], \(favorites.map(\.store))::text[],
                            \(favorites.map(\.at))::timestamptz[]) AS x (u, s, at)
                ORDER BY u, s, at
                """, logger: logger)
            let r = world.reviews
            try await connection.rows(
                """
                INSERT INTO comments (id, kind, store_id, author_id, rating, body, created_at, updated_at)
                SELECT id, 'review', s, a, rating, body, at, at
                FROM unnest(\(r.map(\.id))::text[], \(r.map(\.store))::text[], \(r.map(\.author))::text[],
                            \(r.map(\.rating))::int2[], \(r.map(\.body))::text[], \(r.map(\.at))::timestamptz[])
                    WITH ORDINALITY AS x (id, s, a, rating, body, at, n)
                ORDER BY n
                """, logger: logger)
        }
    }

    /// Judges every review of the world with `weights` (after undoing an earlier setting's verdicts) and reads what
    /// it did.
    func judge(_ world: TrustWorld, weights: TrustJudge.Weights, on database: Database) async throws -> Outcome {
        try await database.transaction { connection in
            let logger = database.logger
            try await connection.rows(
                """
                UPDATE comments SET recommended = true, trust_score = 0
                WHERE kind = 'review' AND (NOT recommended OR trust_score <> 0)
                """, logger: logger)
            try await connection.rows("DELETE FROM comment_signals", logger: logger)
            try await connection.rows(
                """
                INSERT INTO trust_queue (comment_id, due_at) SELECT id, now() FROM comments WHERE kind = 'review'
                ON CONFLICT (comment_id) DO UPDATE SET due_at = EXCLUDED.due_at
                """, logger: logger)
        }
        let service = TrustService(database: database, judge: TrustJudge(weights: weights), enabled: true)
        _ = try await service.judgeAll(now: Date().addingTimeInterval(86400))
        var recommended: [String: Bool] = [:]
        for row in try await database.query("SELECT id, recommended FROM comments WHERE kind = 'review'") {
            let (id, value) = try row.decode((String, Bool).self)
            recommended[id] = value
        }
        var rating: [String: Double] = [:]
        for row in try await database.query(
            "SELECT id, rating_sum::float8 / nullif(rating_count, 0) FROM stores WHERE id LIKE 's_eval%'")
        {
            let (id, value) = try row.decode((String, Double?).self)
            rating[id] = value
        }
        var outcome = Outcome(weights: weights)
        for review in world.reviews {
            let isRecommended = recommended[review.id] ?? true
            switch review.role {
            case .organic(let first):
                outcome.organic += 1
                if isRecommended { outcome.organicRecommended += 1 }
                if first {
                    outcome.firsts += 1
                    if isRecommended { outcome.firstsRecommended += 1 }
                }
            case .attack(let kind):
                guard world.targets.contains(where: { $0.store == review.store }) else { continue }
                var counts = outcome.attackReviews[kind.rawValue] ?? (0, 0)
                counts.total += 1
                if isRecommended { counts.recommended += 1 }
                outcome.attackReviews[kind.rawValue] = counts
            }
        }
        for target in world.targets {
            let all = world.reviews.filter { $0.store == target.store }.map { Double($0.rating) }
            let without = all.reduce(0, +) / Double(all.count)
            let with = rating[target.store] ?? target.organicMean
            outcome.shifts[target.kind.rawValue, default: []].append(
                (abs(without - target.organicMean), abs(with - target.organicMean)))
        }
        return outcome
    }
}
