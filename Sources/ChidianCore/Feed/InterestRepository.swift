import Foundation
import Logging
import PostgresNIO

/// Click interest per viewer and category, kept in PostgreSQL.
public struct InterestRepository: Sendable {
    package let database: Database
    package let halfLife: Double
    /// Repeated opens of one review by one viewer within this window count once.
    public static let dedupeWindow: Double = 10

    public init(database: Database, halfLife: Double) {
        self.database = database
        self.halfLife = halfLife
    }

    public struct Interest: Sendable, Equatable {
        public let categoryID: String
        public let categoryName: String
        public let score: Double
        public let clicks: Int
    }

    /// Counts `viewer` opening review `commentID` at `now`, in one statement: the open is recorded unless the
    /// viewer's last counted open of it was under ten seconds ago, and then the category's score is decayed to
    /// `now` and incremented. Row locks serialise concurrent opens, so none is lost or counted twice. A review of a
    /// category shown to this viewer to explore in the last day counts as that showing's click, once.
    /// Returns whether it counted.
    @discardableResult
    public func recordOpen(viewer: String, commentID: String, at now: Date) async throws -> Bool {
        try await database.run(RecordOpen(viewer: viewer, commentID: commentID, at: now, halfLife: halfLife))
            .first == 1
    }

    /// The statement of `recordOpen`, run on every review opened.
    struct RecordOpen: PostgresPreparedStatement {
        package static let name = "record_open"
        package static let sql = """
            WITH review AS (
                SELECT id, category_id FROM comments
                WHERE id = $2 AND kind = 'review' AND hidden_at IS NULL AND NOT store_archived
            ), opened AS (
                INSERT INTO viewer_opens AS o (viewer, comment_id, opened_at)
                SELECT $1, id, $3 FROM review
                ON CONFLICT (viewer, comment_id) DO UPDATE SET opened_at = EXCLUDED.opened_at
                WHERE o.opened_at <= EXCLUDED.opened_at - make_interval(secs => $4)
                RETURNING 1
            ), counted AS (
                INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
                SELECT $1, category_id, 1, $3, 1 FROM review WHERE EXISTS (SELECT 1 FROM opened)
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    score = i.score * power(0.5, greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / $5) + 1,
                    score_at = greatest(i.score_at, EXCLUDED.score_at),
                    clicks = i.clicks + 1
                RETURNING 1
            ), explored AS (
                UPDATE viewer_explore e SET
                    shown = e.shown * power(0.5, greatest(0, extract(epoch FROM $3 - e.updated_at)) / $5),
                    clicked = least(e.shown, e.clicked + 1)
                        * power(0.5, greatest(0, extract(epoch FROM $3 - e.updated_at)) / $5),
                    updated_at = greatest(e.updated_at, $3)
                FROM review r
                WHERE e.viewer = $1 AND e.category_id = r.category_id AND EXISTS (SELECT 1 FROM opened)
                    AND e.pending_at > $3 - interval '1 day'
                RETURNING e.category_id, e.exploring AS first
            ), explored_everyone AS (
                INSERT INTO category_explore AS g (category_id, shard, shown, clicked)
                SELECT category_id, $6, 0, 1 FROM explored WHERE first
                ON CONFLICT (category_id, shard) DO UPDATE SET clicked = g.clicked + 1
            )
            SELECT count(*)::int FROM counted
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz, .float8, .float8, .int2]

        package var viewer: String
        package var commentID: String
        package var at: Date
        package var halfLife: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(viewer)
            bindings.append(commentID)
            bindings.append(at)
            bindings.append(InterestRepository.dedupeWindow)
            bindings.append(halfLife)
            bindings.append(Int16.random(in: 0..<16))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int { try row.decodeAll(Int.self) }
    }

    /// The viewer's interests decayed to `now`, highest first (ties by category id), above the threshold.
    public func interests(viewer: String, at now: Date) async throws -> [Interest] {
        try await database.run(Interests(viewer: viewer)).map { row in
            Interest(
                categoryID: row.categoryID, categoryName: row.name,
                score: Decay.decayed(row.score, from: row.scoreAt, to: now, halfLife: halfLife), clicks: row.clicks)
        }
        .filter { $0.score > Decay.threshold }
        .sorted { ($0.score, $1.categoryID) > ($1.score, $0.categoryID) }
    }

    /// A viewer's stored interests, undecayed: every signed-in feed page reads them.
    package struct Interests: PostgresPreparedStatement {
        package static let name = "viewer_interests"
        package static let sql = """
            SELECT i.category_id, c.name, i.score, i.score_at, i.clicks
            FROM viewer_interests i JOIN categories c ON c.id = i.category_id
            WHERE i.viewer = $1
            """
        package static let bindingDataTypes: [PostgresDataType] = [.text]

        package var viewer: String

        package func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(viewer)
            return bindings
        }

        package typealias Row = (categoryID: String, name: String, score: Double, scoreAt: Date, clicks: Int)

        package func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decodeAll((String, String, Double, Date, Int).self)
        }
    }

    /// Forgets everything about the viewer's clicks.
    public func reset(viewer: String) async throws {
        try await database.transaction { connection in
            try await connection.rows("DELETE FROM viewer_interests WHERE viewer = \(viewer)", logger: database.logger)
            try await connection.rows("DELETE FROM viewer_opens WHERE viewer = \(viewer)", logger: database.logger)
        }
    }
}
