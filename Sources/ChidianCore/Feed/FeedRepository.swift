import Foundation
import PostgresNIO

/// The featured-review feed: reviews of the viewer's highest-scoring category first (newest first), then the
/// next category, then every other review newest first. A page is one statement (`FeedStatements.Page`) that walks
/// the segments it touches with one bounded index scan each (a category walks `comments_feed_category`), never a
/// scan of all reviews, and returns the page's comment views with the viewer's likes.
public struct FeedRepository: Sendable {
    package let database: Database
    /// The cached pieces first pages are composed from (issue #45); nil runs the statement for every page.
    package let lists: FeedLists?

    public init(database: Database) {
        self.init(database: database, lists: nil)
    }

    package init(database: Database, lists: FeedLists?) {
        self.database = database
        self.lists = lists
    }

    /// The category order a feed walk uses; frozen into its cursor so later pages keep it while the viewer clicks.
    public struct Ordering: Sendable, Equatable {
        public var categories: [(id: String, score: Double)]

        public static func == (a: Ordering, b: Ordering) -> Bool {
            a.categories.map(\.id) == b.categories.map(\.id) && a.categories.map(\.score) == b.categories.map(\.score)
        }
    }

    /// Where a walk stopped: the segment (a category index, or `categories.count` for the rest) and the last row.
    package struct Position: Equatable {
        package var segment: Int
        package var createdAt: String?
        package var id: String?

        /// Before the first review: a key every review sorts under.
        package static let start = Position(segment: 0, createdAt: "9999-12-31 00:00:00+00", id: "~")
    }

    /// A walk and what is set into it: reviews pinned to places among the first `FeedPlan.pinnedReach` (cold start's
    /// page, exploration), left out of the walk wherever it meets them.
    public struct Plan: Sendable {
        public var ordering: Ordering
        /// Place in the feed (from 0) → review id.
        public var pinned: [Int: String]
        /// The places whose pinned review is there to explore its category.
        public var exploring: Set<Int>
        /// How many places earlier pages filled.
        package var offset: Int
        package var position: Position

        public init(ordering: Ordering, pinned: [Int: String] = [:], exploring: Set<Int> = []) {
            self.ordering = ordering
            self.pinned = pinned
            self.exploring = exploring
            offset = 0
            position = .start
        }
    }

    package static let list = "feed"
    /// The most categories a walk orders by interest (the rest come newest first): bounds a cursor's size and a
    /// page's work (one index scan per category it passes through).
    public static let maxCategories = 20
    /// Pinned reviews sit among the first this many places.
    public static let pinnedReach = 10

    public struct Result: Sendable {
        /// The page's visible reviews in feed order, `liked` set for the viewer.
        public var items: [CommentView]
        public var nextCursor: String?
        public var ordering: Ordering
        /// The categories of this page's reviews shown to explore, in page order.
        public var explored: [CommentView.CategoryRef]
        /// The names of the ordering's categories that still exist, by id: read for a page from a cursor (a first
        /// page's caller has them with the interests it ordered by); empty otherwise.
        public var names: [String: String]
        /// Reviews' JSON as everyone sees them (`liked` false) by id, when the page was composed from cached views.
        package var rendered: [String: [UInt8]] = [:]
    }

    /// The first page of a plan.
    public func page(plan: Plan, limit: Int, viewerID: String?) async throws -> Result {
        try await page(plan, limit: limit, viewerID: viewerID, names: false)
    }

    /// A later page.
    public func page(cursor: Cursor, limit: Int, viewerID: String?) async throws -> Result {
        try await page(try Self.decode(cursor), limit: limit, viewerID: viewerID, names: true)
    }

    /// One page: the pinned reviews whose places fall on it, the walk's next rows in the other places (the walk
    /// reads past pinned reviews without showing them, so none appears twice).
    package func page(_ plan: Plan, limit: Int, viewerID: String?, names: Bool) async throws -> Result {
        // The API's limits are at most 100; the statement's scans stop at that, the pinned, and one more.
        let limit = min(limit, FeedStatements.Page.maxRows - 1 - Self.pinnedReach)
        let places = plan.offset..<(plan.offset + limit)
        let pinnedHere = places.compactMap { plan.pinned[$0] }
        let excluded = Set(plan.pinned.values)
        let wanted = limit - pinnedHere.count
        let clicked = plan.ordering.categories.map(\.id)
        let walkLimit = wanted + excluded.count + 1
        var composed: (rows: [FeedStatements.Row], rendered: [String: [UInt8]])? = nil
        if let lists, !names, plan.position == .start {
            composed = try await composedRows(
                clicked: clicked, limit: walkLimit, viewerID: viewerID, pinned: pinnedHere, lists: lists)
        }
        let rows: [FeedStatements.Row]
        if let composed {
            rows = composed.rows
        } else {
            rows = try await database.forReads.run(
                FeedStatements.Page(
                    clicked: clicked, segment: plan.position.segment, createdAt: plan.position.createdAt,
                    id: plan.position.id, limit: walkLimit, viewerID: viewerID, names: names, pinned: pinnedHere))
        }
        // Rows are read by index: a comment view is copied once, into the page, not at every step.
        let walked = rows.indices.filter { (rows[$0].item?.position ?? 0) > 0 }
            .sorted { rows[$0].item!.position < rows[$1].item!.position }
        var taken: [Int] = []
        var last: Int? = nil
        for index in walked where taken.count < wanted {
            last = index
            if !excluded.contains(rows[index].item!.view.id) { taken.append(index) }
        }
        let lastPosition = last.map { rows[$0].item!.position } ?? 0
        let walkMore =
            rows.first?.more == true
            || walked.drop(while: { rows[$0].item!.position <= lastPosition })
                .contains { !excluded.contains(rows[$0].item!.view.id) }
        var pinnedRows: [String: Int] = [:]
        for index in rows.indices where (rows[index].item?.position ?? 0) < 0 && rows[index].item!.shown {
            if pinnedRows[rows[index].item!.view.id] == nil { pinnedRows[rows[index].item!.view.id] = index }
        }
        var items: [CommentView] = []
        var explored: [CommentView.CategoryRef] = []
        var queue = taken[...]
        for place in places {
            if let id = plan.pinned[place] {
                guard let index = pinnedRows[id] else { continue }
                items.append(rows[index].item!.view)
                if plan.exploring.contains(place) {
                    let category = rows[index].item!.view.store.category
                    if !explored.contains(where: { $0.id == category.id }) { explored.append(category) }
                }
            } else if let index = queue.popFirst(), rows[index].item!.shown {
                items.append(rows[index].item!.view)
            }
        }
        var next: String? = nil
        let pinnedLater = plan.pinned.keys.contains { $0 >= places.upperBound }
        if walkMore || pinnedLater {
            var after = plan
            after.offset = places.upperBound
            if let last, let item = rows[last].item {
                after.position = Position(segment: item.segment, createdAt: item.createdAtKey, id: item.view.id)
            }
            next = Self.encode(after)
        }
        return Result(
            items: items, nextCursor: next, ordering: plan.ordering, explored: explored,
            names: rows.first?.names ?? [:], rendered: composed?.rendered ?? [:])
    }

    package static func encode(_ plan: Plan) -> String {
        var keys = [String(plan.position.segment), plan.position.createdAt ?? "", plan.position.id ?? ""]
        keys += plan.ordering.categories.map { "\($0.id)|\($0.score)" }
        if plan.offset < pinnedReach || !plan.pinned.isEmpty {
            keys.append("@\(plan.offset)")
            keys += plan.pinned.sorted { $0.key < $1.key }.map {
                "\($0.key)\(plan.exploring.contains($0.key) ? "*" : "!")\($0.value)"
            }
        }
        return Cursor(list: list, keys: keys).token
    }

    /// The cursor: segment, created_at, id of the last row walked; then the frozen order as `id|score` (at most
    /// `maxCategories` distinct categories); then, when anything is pinned or may be, `@offset` and the pinned as
    /// `place!id` (`place*id` when exploring; places below `pinnedReach`). Anything else is 400 `invalid_cursor`.
    package static func decode(_ cursor: Cursor) throws -> Plan {
        let invalid = CursorError.notIssued
        guard cursor.list == list, cursor.keys.count >= 3 else { throw invalid }
        let tail = cursor.keys.dropFirst(3)
        let orderKeys = tail.prefix { !$0.hasPrefix("@") }
        let pinKeys = tail.dropFirst(orderKeys.count)
        let count = orderKeys.count
        guard (0...maxCategories).contains(count) else { throw invalid }
        let head = try Cursor(list: list, keys: Array(cursor.keys.prefix(3)))
            .keys(for: list, [.integer(0...count), .timestamp, .id])
        var categories: [(id: String, score: Double)] = []
        for entry in orderKeys {
            let parts = entry.split(separator: "|", maxSplits: 1).map(String.init)
            guard parts.count == 2, Cursor.check(parts[0], .id), Cursor.check(parts[1], .number),
                let score = Double(parts[1]),
                score >= 0, !categories.contains(where: { $0.id == parts[0] })
            else { throw invalid }
            categories.append((parts[0], score))
        }
        var plan = Plan(ordering: Ordering(categories: categories))
        plan.position = Position(segment: Int(head[0])!, createdAt: head[1], id: head[2])
        plan.offset = pinnedReach
        if let first = pinKeys.first {
            guard let offset = Int(first.dropFirst()), (0...10_000).contains(offset), pinKeys.count <= pinnedReach + 1
            else { throw invalid }
            plan.offset = offset
            for entry in pinKeys.dropFirst() {
                let digits = entry.prefix { $0.isASCII && $0.isNumber }
                let rest = entry.dropFirst(digits.count)
                guard let place = Int(digits), (0..<pinnedReach).contains(place), let mark = rest.first,
                    mark == "!" || mark == "*", Cursor.check(String(rest.dropFirst()), .id), plan.pinned[place] == nil
                else { throw invalid }
                plan.pinned[place] = String(rest.dropFirst())
                if mark == "*" { plan.exploring.insert(place) }
            }
        }
        return plan
    }
}
