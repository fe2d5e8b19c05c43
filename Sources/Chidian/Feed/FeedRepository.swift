import Foundation
import Logging
import PostgresNIO

/// The featured-review feed: reviews of the viewer's highest-scoring category first (newest first), then the
/// next category, then every other review newest first. Each page costs one index scan per segment it touches
/// (a category walks `comments_feed_category`), never a scan of all reviews.
public struct FeedRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The category order a feed walk uses; frozen into its cursor so later pages keep it while the viewer clicks.
    public struct Ordering: Sendable, Equatable {
        public var categories: [(id: String, score: Double)]

        public static func == (a: Ordering, b: Ordering) -> Bool {
            a.categories.map(\.id) == b.categories.map(\.id) && a.categories.map(\.score) == b.categories.map(\.score)
        }
    }

    /// Where a walk stopped: the segment (a category index, or `categories.count` for the rest) and the last row.
    struct Position {
        var segment: Int
        var createdAt: String?
        var id: String?
    }

    static let list = "feed"
    /// The most categories a walk orders by interest (the rest come newest first): bounds a cursor's size and a
    /// page's work (one index scan per category it passes through).
    public static let maxCategories = 20

    public struct Result: Sendable {
        public var ids: [String]
        /// The visible reviews among `ids`, in order, read on the same connection.
        public var items: [CommentView]
        public var nextCursor: String?
        public var ordering: Ordering
    }

    /// One page of review ids in feed order.
    public func page(ordering: Ordering, cursor: Cursor?, limit: Int) async throws -> Result {
        var ordering = ordering
        var position = Position(segment: 0)
        if let cursor { (ordering, position) = try Self.decode(cursor) }
        let logger = database.logger
        let frozen = ordering
        let start = position
        let (rows, items) = try await database.forReads.withConnection { connection in
            var rows: [(id: String, keys: [String])] = []
            var position = start
            let clicked = frozen.categories.map(\.id)
            while rows.count <= limit && position.segment <= clicked.count {
                let want = limit + 1 - rows.count
                let found: [(String, String)]
                if position.segment < clicked.count {
                    found = try await Self.category(
                        clicked[position.segment], after: position, limit: want, on: connection, logger: logger)
                } else {
                    found = try await Self.rest(
                        excluding: clicked, after: position, limit: want, on: connection, logger: logger)
                }
                rows += found.map { (id: $0.0, keys: [String(position.segment), $0.1, $0.0]) }
                position = Position(segment: position.segment + 1)
            }
            let items = try await CommentRepository.views(
                ids: rows.prefix(limit).map(\.id), on: connection, logger: logger)
            return (rows, items)
        }
        let ids = rows.prefix(limit).map(\.id)
        var next: String? = nil
        if rows.count > limit, let last = rows.prefix(limit).last {
            next = Cursor(list: Self.list, keys: last.keys + frozen.categories.map { "\($0.id)|\($0.score)" }).token
        }
        return Result(ids: ids, items: items, nextCursor: next, ordering: frozen)
    }

    /// The cursor: segment, created_at, id of the last row, then the frozen order as `id|score`, at most
    /// `maxCategories` distinct categories; anything else is 400 `invalid_cursor`.
    static func decode(_ cursor: Cursor) throws -> (Ordering, Position) {
        let invalid = CursorError.notIssued
        let count = cursor.keys.count - 3
        guard cursor.list == list, (0...maxCategories).contains(count) else { throw invalid }
        let head = try Cursor(list: list, keys: Array(cursor.keys.prefix(3)))
            .keys(for: list, [.integer(0...count), .timestamp, .id])
        var categories: [(id: String, score: Double)] = []
        for entry in cursor.keys.dropFirst(3) {
            let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
            guard parts.count == 2, Cursor.check(parts[0], .id), Cursor.check(parts[1], .number),
                let score = Double(parts[1]),
                score >= 0, !categories.contains(where: { $0.id == parts[0] })
            else { throw invalid }
            categories.append((parts[0], score))
        }
        return (Ordering(categories: categories), Position(segment: Int(head[0])!, createdAt: head[1], id: head[2]))
    }

    static func category(
        _ category: String, after position: Position, limit: Int, on connection: PostgresConnection, logger: Logger
    ) async throws -> [(String, String)] {
        let statement = FeedStatements.Category(
            category: category, createdAt: position.createdAt, id: position.id, limit: limit)
        return try await connection.run(statement, logger: logger).map { ($0.id, $0.createdAt) }
    }

    /// Every review outside the clicked categories, newest first.
    static func rest(
        excluding clicked: [String], after position: Position, limit: Int, on connection: PostgresConnection,
        logger: Logger
    ) async throws -> [(String, String)] {
        let rows =
            clicked.isEmpty
            ? try await connection.run(
                FeedStatements.Everything(createdAt: position.createdAt, id: position.id, limit: limit), logger: logger)
            : try await connection.run(
                FeedStatements.Rest(clicked: clicked, createdAt: position.createdAt, id: position.id, limit: limit),
                logger: logger)
        return rows.map { ($0.id, $0.createdAt) }
    }
}
