import Foundation
import PostgresNIO

/// How a store's comments are ordered.
public enum CommentSort: String, Sendable, CaseIterable {
    /// Newest first, ties by id descending.
    case newest
    /// Highest rating first (notices, which have none, after every review), then newest.
    case rating
    /// Most liked first, then newest.
    case helpful
}

/// Keyset positions for comment lists. Sort keys travel as text (timestamps via `created_at::text`, keeping
/// microseconds) and are compared with row comparisons in the same order as `ORDER BY`, so a page never
/// repeats or skips a comment. A nil position (the first page) binds NULL keys, which the statements read as
/// "above every row": one statement text whose generic plan is an index range scan from the position.
public enum CommentKeyset {
    /// A position in a newest-first list: after (`createdAt`, `id`).
    public struct Newest: Sendable, Equatable {
        public var createdAt: String?
        public var id: String?

        /// Reads `cursor` for list `list`; 400 `invalid_cursor` when it belongs elsewhere.
        public init(_ cursor: Cursor?, list: String) throws {
            guard let cursor else { return }
            let keys = try cursor.keys(for: list, [.timestamp, .id])
            createdAt = keys[0]
            id = keys[1]
        }

        /// The cursor keys of the position after `row`.
        package static func keys(of row: CommentRow.Decoded) -> [String] { [row.createdAtKey, row.view.id] }
    }

    /// A position in a rating-first list: after (`rating`, `createdAt`, `id`).
    public struct Rating: Sendable, Equatable {
        public var rating: Int?
        public var createdAt: String?
        public var id: String?

        public init(_ cursor: Cursor?, list: String) throws {
            guard let cursor else { return }
            let keys = try cursor.keys(for: list, [.integer(0...5), .timestamp, .id])
            rating = Int(keys[0])!
            createdAt = keys[1]
            id = keys[2]
        }

        /// The cursor keys of the position after `row` (a notice's missing rating sorts as 0).
        package static func keys(of row: CommentRow.Decoded) -> [String] {
            [String(row.view.rating ?? 0), row.createdAtKey, row.view.id]
        }

        func bindings(storeID: String, kinds: [String], limit: Int) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(storeID)
            bindings.append(kinds)
            bindings.append(rating)
            bindings.append(createdAt)
            bindings.append(id)
            bindings.append(limit)
            return bindings
        }
    }

    /// A position in a most-liked-first list: after (`likeCount`, `createdAt`, `id`).
    public struct Helpful: Sendable, Equatable {
        public var likes: Int?
        public var createdAt: String?
        public var id: String?

        public init(_ cursor: Cursor?, list: String) throws {
            guard let cursor else { return }
            let keys = try cursor.keys(for: list, [.integer(0...Int(Int32.max)), .timestamp, .id])
            likes = Int(keys[0])!
            createdAt = keys[1]
            id = keys[2]
        }

        package static func keys(of row: CommentRow.Decoded) -> [String] {
            [String(row.view.likeCount), row.createdAtKey, row.view.id]
        }
    }

    /// Runs a list statement for `limit` rows and builds the page. A forged cursor whose keys PostgreSQL cannot
    /// read is 400 `invalid_cursor`.
    package static func page<Statement: PostgresPreparedStatement>(
        _ statement: Statement, keys: (CommentRow.Decoded) -> [String], limit: Int, list: String, database: Database
    ) async throws -> Page<CommentView> where Statement.Row == CommentRow.Decoded {
        let rows: [CommentRow.Decoded]
        do {
            rows = try await database.forReads.run(statement)
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        return Page(fetched: rows.map { (item: $0.view, keys: keys($0)) }, limit: limit, list: list)
    }
}
