import Foundation
import Logging
import Metrics
import PostgresNIO

/// `GET /v1/search`: stores whose name matches come first, then those whose category matches, then those matched
/// only through their reviews, by review count; inside each group by `rating.score` descending, then id
/// descending (the tie-break of `GET /v1/stores?sort=rating`).
///
/// A page is one call of the SQL function `search_page` (migrations 003 and 008), which reads the groups with keyset
/// queries whose plans PostgreSQL keeps per connection, then one query for the store views. The cursor carries
/// the query, the group, the review count, the score (as text, exact) and the id of the last store, so pages never
/// repeat or skip a store while the data is unchanged. The design and its query plans are in docs/SEARCH.md.
public struct SearchRepository: Sendable {
    let database: Database
    let stores: StoreRepository
    /// The rows a page may read counting a text in reviews (`SEARCH_ROW_BUDGET`); beyond it the page is approximate.
    let budget: Int
    /// Searches that count reviews run a few at a time (`SEARCH_CONCURRENCY`), so they cannot take every core.
    let gate: AdmissionGate

    /// Shared search pages (`Caching.reads`); nil reads PostgreSQL every time.
    let cache: ReadCache?

    public init(
        database: Database, budget: Int = AppConfiguration.defaultSearchRowBudget,
        gate: AdmissionGate = AdmissionGate(limit: .max, queue: 0, maxWait: .zero), cache: ReadCache? = nil
    ) {
        self.database = database
        self.budget = budget
        self.gate = gate
        self.cache = cache
        stores = StoreRepository(database: database, cache: cache)
    }

    static let cursorList = "search"

    /// A place in the order: the sort keys of one store.
    struct Position: Sendable, Equatable {
        var group: Int
        var count: Int
        var score: String
        var id: String
    }

    /// One store of a page with what it matched.
    struct Hit: Sendable {
        var position: Position
        var category: Bool
        var textCount: Int
        var dishes: [(name: String, count: Int)]

        func matches(store: StoreView, query: SearchQuery) -> [SearchMatch] {
            var matches: [SearchMatch] = []
            if position.group == 0 { matches.append(SearchMatch(field: .name, text: store.name)) }
            if category { matches.append(SearchMatch(field: .category, text: store.category.name)) }
            if textCount > 0 { matches.append(SearchMatch(field: .dish, text: query.text, count: textCount)) }
            for dish in dishes { matches.append(SearchMatch(field: .dish, text: dish.name, count: dish.count)) }
            return matches
        }
    }

    public func search(_ query: SearchQuery, page: PageRequest, viewer: AuthUser?) async throws -> SearchPage {
        guard cache != nil else {
            return try await read(query, page: page) { try await stores.views(ids: $0, viewer: viewer) }
        }
        return try await personalised(try await pageEntry(query, page: page).value, for: viewer)
    }

    /// The page as everyone sees it, cached under `search` (any change of order or membership) and each store's tag.
    func pageEntry(_ query: SearchQuery, page: PageRequest) async throws -> ReadCache.Entry<SearchPage> {
        let load = { try await read(query, page: page) { try await stores.sharedViews(ids: $0) } }
        let render: (SearchPage) throws -> [UInt8] = { page in
            var anonymous = page
            anonymous.items = page.items.map {
                SearchResult(store: $0.store.personalised(for: nil), matches: $0.matches)
            }
            return try JSONWriter.bytes(of: anonymous)
        }
        guard let cache else {
            let found = try await load()
            return try ReadCache.Entry(value: found, rendered: render(found))
        }
        _ = try Self.position(page.cursor, query: query)  // a cursor of another query is refused before any lookup
        let key = "q:\(page.limit):\(page.cursor?.token ?? ""):\(query.text)"
        return try await cache.entry(
            key, tags: { ["search"] + $0.items.map { "s:" + $0.store.id } }, render: render, load: load)
    }

    /// A shared page as `viewer` sees it: `favorited` in one statement, `adSpend` for managers and admins.
    func personalised(_ page: SearchPage, for viewer: AuthUser?) async throws -> SearchPage {
        let views = try await stores.personalised(page.items.map(\.store), for: viewer)
        var page = page
        page.items = zip(page.items, views).map { SearchResult(store: $1, matches: $0.matches) }
        return page
    }

    /// One page with its stores from `views`.
    private func read(_ query: SearchQuery, page: PageRequest, views: ([String]) async throws -> [StoreView])
        async throws -> SearchPage
    {
        let after = try Self.position(page.cursor, query: query)
        guard query.canMatch else { return SearchPage(items: [], nextCursor: nil, approximate: false) }
        // Names queued by a write since the last pinyin query get their pinyin first.
        if query.pinyin != nil { try await PinyinIndex.refresh(database: database) }
        let limit = page.limit
        let statement = SearchPageStatement(query: query, after: after, limit: limit + 1, budget: budget)
        let database = self.database.forReads
        let rows =
            query.countsReviews
            ? try await gate.run { try await database.run(statement) } : try await database.run(statement)
        var hits: [Hit] = []
        var approximate = false
        for row in rows {
            switch row {
            case .hit(let hit): hits.append(hit)
            case .status(let over, let rowsRead):
                approximate = over
                Self.rowsRead.record(rowsRead)
            }
        }
        let shown = hits.prefix(limit)
        let views = try await views(shown.map(\.position.id))
        let byID = Dictionary(views.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A store archived between the two queries drops out; the cursor still follows the keys read.
        let items = shown.compactMap { hit -> SearchResult? in
            guard let store = byID[hit.position.id] else { return nil }
            return SearchResult(store: store, matches: hit.matches(store: store, query: query))
        }
        let next = hits.count > limit ? Self.cursor(hits[limit - 1].position, query: query) : nil
        return SearchPage(items: items, nextCursor: next, approximate: approximate)
    }

    static let rowsRead = Recorder(label: "chidian_search_rows_read")

    static func cursor(_ position: Position, query: SearchQuery) -> String {
        Cursor(
            list: cursorList,
            keys: [query.text, String(position.group), String(position.count), position.score, position.id]
        ).token
    }

    /// The position after which the page starts; 400 `invalid_cursor` for a cursor of another list or query.
    static func position(_ cursor: Cursor?, query: SearchQuery) throws -> Position? {
        guard let cursor else { return nil }
        let keys = try cursor.keys(
            for: cursorList,
            [.text(limit: SearchQuery.maxLength), .integer(0...2), .integer(0...Int(Int32.max)), .number, .id])
        guard keys[0] == query.text else { throw CursorError.otherSearch }
        return Position(group: Int(keys[1])!, count: Int(keys[2])!, score: keys[3], id: keys[4])
    }
}
