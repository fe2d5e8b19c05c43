import Foundation
import PostgresNIO

/// How a store's comments are ordered.
public enum CommentSort: String, Sendable, CaseIterable {
    /// Newest first, ties by id descending.
    case newest
    /// Highest rating first (notices, which have none, after every review), then newest.
    case rating
}

/// Keyset positions for comment lists. Sort keys travel as text (timestamps via `created_at::text`, keeping
/// microseconds) and are compared with row comparisons in the same order as `ORDER BY`, so a page never
/// repeats or skips a comment. Reusable by any list of comments (the feed, search).
public enum CommentKeyset {
    /// Key columns to append after `CommentView.select` for a newest-first list.
    public static let newestKeyColumns = "c.created_at::text, c.id"
    public static let newestOrder = "c.created_at DESC, c.id DESC"

    /// A position in a newest-first list: after (`createdAt`, `id`). The first page starts after a sentinel
    /// above every row (`infinity`), so every page runs one statement text whose prepared, generic plan is an
    /// index range scan from the position (no `$1 IS NULL OR …` branch for the planner to keep open).
    public struct Newest: Sendable, Equatable {
        public var createdAt = "infinity"
        public var id = ""

        /// Reads `cursor` for list `list`; 400 `invalid_cursor` when it belongs elsewhere.
        public init(_ cursor: Cursor?, list: String) throws {
            guard let cursor else { return }
            let keys = try cursor.keys(for: list, [.timestamp, .id])
            createdAt = keys[0]
            id = keys[1]
        }
    }

    /// A position in a rating-first list: after (`rating`, `createdAt`, `id`); the first page starts above the
    /// highest rating.
    public struct Rating: Sendable, Equatable {
        public var rating = 6
        public var createdAt = "infinity"
        public var id = ""

        public init(_ cursor: Cursor?, list: String) throws {
            guard let cursor else { return }
            let keys = try cursor.keys(for: list, [.integer(0...5), .timestamp, .id])
            rating = Int(keys[0])!
            createdAt = keys[1]
            id = keys[2]
        }
    }

    /// The key columns appended after the `CommentView.select` columns, as text, for the cursor.
    static func keys(of row: PostgresRow, count: Int) throws -> [String] {
        let random = PostgresRandomAccessRow(row)
        return try (0..<count).map { try random[CommentView.columnCount + $0].decode(String.self) }
    }

    /// Runs a list query whose rows are `CommentView.select` columns followed by `keyCount` key columns,
    /// and builds the page. A forged cursor whose keys PostgreSQL cannot read is 400 `invalid_cursor`.
    static func page(
        _ query: PostgresQuery, keyCount: Int, limit: Int, list: String, database: Database
    ) async throws -> Page<CommentView> {
        let rows: [PostgresRow]
        do {
            rows = try await database.query(query)
        } catch let error as PSQLError where error.isDataException {
            throw Problem.badRequest("invalid_cursor", "The cursor is not one this server issued.")
        }
        let fetched = try rows.map { (item: try CommentView(row: $0), keys: try keys(of: $0, count: keyCount)) }
        return Page(fetched: fetched, limit: limit, list: list)
    }
}
