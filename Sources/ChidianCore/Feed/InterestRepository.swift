import Foundation
import Logging
import PostgresNIO

/// Click interest per viewer and category, kept in PostgreSQL.
public struct InterestRepository: Sendable {
    package let database: Database
    package let halfLife: Double
    /// Holds everyone's part of a viewer's state (`state`); nil reads it with the viewer's every time.
    package let cache: ReadCache?
    /// Repeated opens of one review by one viewer within this window count once.
    public static let dedupeWindow: Double = 10

    public init(database: Database, halfLife: Double, cache: ReadCache? = nil) {
        self.database = database
        self.halfLife = halfLife
        self.cache = cache
    }

    public struct Interest: Sendable, Equatable {
        public let categoryID: String
        public let categoryName: String
        public let score: Double
        public let clicks: Int
    }

    /// Counts `viewer` opening review `commentID` at `now`: the open is recorded unless the viewer's last counted
    /// open of it was under ten seconds ago, and then the category's score is decayed to `now` and incremented. A
    /// review of a category shown to this viewer to explore in the last day counts as that showing's click, once
    /// (sql/027). Returns whether it counted. A server batches these (`SignalBuffer`); this writes one at once.
    @discardableResult
    public func recordOpen(viewer: String, commentID: String, at now: Date) async throws -> Bool {
        try await apply([.openedReview(viewer: viewer, commentID: commentID, at: now)]) == 1
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
