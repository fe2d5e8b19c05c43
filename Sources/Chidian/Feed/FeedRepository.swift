import Foundation
import PostgresNIO

/// The featured-review feed: reviews of the viewer's highest-scoring category first (newest first), then the
/// next category, then every other review newest first. A page is one statement (`FeedStatements.Page`) that walks
/// the segments it touches with one bounded index scan each (a category walks `comments_feed_category`), never a
/// scan of all reviews, and returns the page's comment views with the viewer's likes.
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
        /// The page's visible reviews in feed order, `liked` set for the viewer.
        public var items: [CommentView]
        public var nextCursor: String?
        public var ordering: Ordering
        /// The names of the ordering's categories that still exist, by id: read for a page from a cursor (a first
        /// page's caller has them with the interests it ordered by); empty otherwise.
        public var names: [String: String]
    }

    /// One page in feed order, in one statement; `viewerID` is whose likes `liked` shows (nobody's for nil).
    public func page(ordering: Ordering, cursor: Cursor?, limit: Int, viewerID: String?) async throws -> Result {
        // The API's limits are at most 100; the statement's scans stop at that and one more.
        let limit = min(limit, FeedStatements.Page.maxRows - 1)
        var ordering = ordering
        var position = Position(segment: 0)
        if let cursor { (ordering, position) = try Self.decode(cursor) }
        let rows = try await database.forReads.run(
            FeedStatements.Page(
                clicked: ordering.categories.map(\.id), segment: position.segment, createdAt: position.createdAt,
                id: position.id, limit: limit + 1, viewerID: viewerID, names: cursor != nil))
        let page = rows.compactMap(\.item).sorted { $0.position < $1.position }
        var next: String? = nil
        if rows.first?.more == true, let last = page.last {
            next =
                Cursor(
                    list: Self.list,
                    keys: [String(last.segment), last.createdAtKey, last.view.id]
                        + ordering.categories.map { "\($0.id)|\($0.score)" }
                ).token
        }
        return Result(
            items: page.filter(\.shown).map(\.view), nextCursor: next, ordering: ordering,
            names: rows.first?.names ?? [:])
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
}
