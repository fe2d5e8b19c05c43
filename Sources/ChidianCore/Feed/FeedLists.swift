import Foundation
import PostgresNIO

/// The shared pieces a first page of the featured feed is composed from (issue #45): each category's newest feed
/// reviews (`fk:<category>`, migration 038), the categories' ids (`categories`), and each review's view as
/// everyone sees it (`cm:<id>`, under its store's and people's tags, as a store's comment pages are).
package struct FeedLists: Sendable {
    package let database: Database
    package let cache: ReadCache

    package init(database: Database, cache: ReadCache) {
        self.database = database
        self.cache = cache
    }

    /// As deep as the page statement's scans of a category: no walk of a first page reads further.
    static let depth = FeedStatements.Page.maxRows

    /// A category's newest feed reviews, newest first, as columns (what the walk and cold start read).
    package struct List: Sendable {
        var ids: [String] = []
        var createdAt: [Date] = []
        /// `created_at` as PostgreSQL writes it: the cursor's key.
        var keys: [String] = []
        var likes: [Int] = []
        var ratings: [Int] = []
        var storeRatings: [Double] = []

        var cost: Int { 64 + ids.count * 120 }
    }

    /// The lists of `categories` in order; nil while the cache is not live.
    func lists(_ categories: [String]) async throws -> [List]? {
        guard let found = cache.getAll(categories.map { "fk:" + $0 }, as: List.self) else { return nil }
        var lists: [List] = []
        lists.reserveCapacity(categories.count)
        for (category, entry) in zip(categories, found) {
            if let entry { lists.append(entry.value) } else { lists.append(try await list(category)) }
        }
        return lists
    }

    private func list(_ category: String) async throws -> List {
        try await cache.entry(
            "fk:" + category, tags: { _ in ["fk:" + category] }, cost: { $0.cost },
            load: { try await database.run(Newest(category: category)).reduce(into: List()) { $0.add($1) } }
        ).value
    }

    /// Every category's id, in id order; nil while the cache is not live.
    func categoryIDs() async throws -> [String]? {
        guard cache.isLive else { return nil }
        return try await allCategoryIDs()
    }

    private func allCategoryIDs() async throws -> [String] {
        try await cache.entry(
            "fk:categories", tags: { _ in ["categories"] }, cost: { 64 + 32 * $0.count },
            load: { try await database.run(CategoryIDs()) }
        ).value
    }

    /// Every category's list and the merge of them all, newest first: what cold start's candidates and the walk of
    /// a viewer without interests read. One piece under every list's tag and the categories', composed from the
    /// lists, so such a page makes one lookup instead of two for each category.
    package struct Everyone: Sendable {
        var categories: [String]
        var lists: [List]
        /// The lists merged by (created_at, id) descending, as deep as a walk reads: any walk's prefix.
        var walk: [(list: Int, index: Int)]
    }

    /// `Everyone`; nil while the cache is not live.
    func everyone() async throws -> Everyone? {
        guard cache.isLive else { return nil }
        return try await cache.entry(
            "fk:everyone", tags: { $0.categories.map { "fk:" + $0 } + ["categories"] },
            cost: { 64 + $0.lists.reduce(0) { $0 + $1.cost } + 16 * $0.walk.count },
            load: {
                let categories = try await allCategoryIDs()
                var lists: [List] = []
                for category in categories { lists.append(try await list(category)) }
                let walk = DescendingMerge.merge(
                    counts: lists.map(\.ids.count), count: Self.depth, key: { lists[$0].createdAt[$1] },
                    id: { lists[$0].ids[$1] })
                return Everyone(categories: categories, lists: lists, walk: walk)
            }
        ).value
    }

    /// The views of `ids` as everyone sees them (`liked` false), with their JSON, by id; nil while the cache is not
    /// live. Misses are read in one statement; a comment no longer visible is absent.
    func views(_ ids: [String]) async throws -> [String: ReadCache.Entry<CommentView>]? {
        guard let found = cache.getAll(ids.map { "cm:" + $0 }, as: CommentView.self) else { return nil }
        var views: [String: ReadCache.Entry<CommentView>] = [:]
        var missing: [String] = []
        for (id, entry) in zip(ids, found) {
            if let entry { views[id] = entry } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return views }
        let ticket = cache.ticket()
        let read = try await ReadRouting.$floor.withValue(nil) {
            try await database.run(CommentStatements.ByIDs(ids: missing))
        }
        for view in read {
            // Its JSON is kept beside it: writing twenty reviews was a sixth of an anonymous feed page's CPU.
            let entry = ReadCache.Entry(value: view, json: try JSONWriter.bytes(of: view), etag: "")
            views[view.id] = entry
            var tags = ["c:" + view.storeId, "a:" + view.author.id]
            if let replier = view.reply?.author.id { tags.append("a:" + replier) }
            cache.insert(
                "cm:" + view.id, entry, tags: tags, cost: 512 + 2 * view.body.utf8.count + entry.json.count,
                since: ticket)
        }
        return views
    }

    struct Row: Sendable {
        var id: String
        var createdAt: Date
        var key: String
        var likes: Int
        var rating: Int
        var storeRating: Double
    }

    /// A category's newest feed reviews, by the walk's index and order (`comments_feed_category`).
    struct Newest: PostgresPreparedStatement {
        static let name = "feed_list_newest"
        static let sql = """
            SELECT c.id, c.created_at, c.created_at::text, c.like_count, c.rating, s.rating_score
            FROM comments c JOIN stores s ON s.id = c.store_id
            WHERE c.category_id = $1
              AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
            ORDER BY c.created_at DESC, c.id DESC LIMIT \(depth)
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        var category: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(category)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (id, at, key, likes, rating, storeRating) = try row.decodeAll(
                (String, Date, String, Int, Int, Double).self)
            return Row(id: id, createdAt: at, key: key, likes: likes, rating: rating, storeRating: storeRating)
        }
    }

    struct CategoryIDs: PostgresPreparedStatement {
        static let name = "feed_list_categories"
        static let sql = "SELECT id FROM categories ORDER BY id"
        static let bindingDataTypes: [PostgresDataType] = []

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }
}

extension FeedLists.List {
    mutating func add(_ row: FeedLists.Row) {
        ids.append(row.id)
        createdAt.append(row.createdAt)
        keys.append(row.key)
        likes.append(row.likes)
        ratings.append(row.rating)
        storeRatings.append(row.storeRating)
    }
}
