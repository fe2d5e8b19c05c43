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
    package let database: Database
    package let stores: StoreRepository
    /// The rows a page may read counting a text in reviews (`SEARCH_ROW_BUDGET`); beyond it the page is approximate.
    package let budget: Int
    /// Searches that count reviews run a few at a time (`SEARCH_CONCURRENCY`), so they cannot take every core.
    package let gate: AdmissionGate
    /// A text that finds `gate` full and nothing cached is answered by a glance: the same page read with
    /// `budget / glanceShare` rows, approximate when cut, a few at a time behind this gate (past it, 503 `busy`).
    package let glances: AdmissionGate
    static let glanceShare = 8

    /// Search pages' hits (`Caching.searches`, their own share so a flood of store views cannot push them out);
    /// nil reads PostgreSQL every time.
    package let cache: ReadCache?

    public init(
        database: Database, stores: StoreRepository, budget: Int = AppConfiguration.defaultSearchRowBudget,
        gate: AdmissionGate = AdmissionGate(limit: .max, queue: 0, maxWait: .zero),
        glances: AdmissionGate = AdmissionGate(limit: .max, queue: 0, maxWait: .zero), caching: Caching? = nil
    ) {
        self.database = database
        self.budget = budget
        self.gate = gate
        self.glances = glances
        cache = caching?.searches
        self.stores = stores
    }

    static let cursorList = "search"

    /// A place in the order: the sort keys of one store.
    package struct Position: Sendable, Equatable {
        package var group: Int
        package var count: Int
        package var score: String
        package var id: String
    }

    /// One store of a page with what it matched.
    package struct Hit: Sendable {
        package var position: Position
        package var category: Bool
        var textCount: Int
        package var dishes: [(name: String, count: Int)]
    }

    /// A hit as a page keeps it: what its matches need, without the sort keys (the cursor already holds the last).
    package struct Kept: Sendable {
        package let id: String
        package let name: Bool
        package let category: Bool
        let textCount: Int32
        package let dishes: [(name: String, count: Int)]
        /// Its place in the order, for invalidation: a score move that keeps it between its neighbours keeps the page.
        package let group: Int8
        package let count: Int32
        package let score: Double

        package init(_ hit: Hit) {
            id = hit.position.id
            group = Int8(clamping: hit.position.group)
            count = Int32(clamping: hit.position.count)
            score = Double(hit.position.score) ?? 0
            name = hit.position.group == 0
            category = hit.category
            textCount = Int32(clamping: hit.textCount)
            dishes = hit.dishes
        }

        package func matches(name storeName: String, category categoryName: String, query: SearchQuery)
            -> [SearchMatch]
        {
            var matches: [SearchMatch] = []
            if name { matches.append(SearchMatch(field: .name, text: storeName)) }
            if category { matches.append(SearchMatch(field: .category, text: categoryName)) }
            if textCount > 0 { matches.append(SearchMatch(field: .dish, text: query.text, count: Int(textCount))) }
            for dish in dishes { matches.append(SearchMatch(field: .dish, text: dish.name, count: dish.count)) }
            return matches
        }
    }

    /// With `near`, search keeps its order and each page keeps only the stores within the radius (the lists' SQL
    /// condition, `StoreFilter`; a page may hold fewer than `limit`, the cursor still walks the whole result), each
    /// with `distanceMeters`.
    public func search(_ query: SearchQuery, page: PageRequest, viewer: AuthUser?, near: NearQuery? = nil) async throws
        -> SearchPage
    {
        let found = try await hits(query, page: page)
        var shown = found.hits.map(\.id)
        if let near {
            let within = try await stores.ids(shown, passing: StoreFilter(near: near))
            shown = shown.filter { within.contains($0) }
        }
        let views = try await stores.views(ids: shown, viewer: viewer).map { $0.measured(from: near?.point) }
        let byID = Dictionary(views.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A store archived since the hits were read drops out; the cursor still follows the keys read.
        let items = found.hits.compactMap { hit -> SearchResult? in
            guard let store = byID[hit.id] else { return nil }
            return SearchResult(
                store: store, matches: hit.matches(name: store.name, category: store.category.name, query: query))
        }
        return SearchPage(items: items, nextCursor: found.nextCursor, approximate: found.approximate)
    }

    /// The page as everyone sees it, nil without the cache: the hits and the stores' JSON from the cache.
    package func sharedPage(_ query: SearchQuery, page: PageRequest) async throws -> SharedSearchPage? {
        guard cache != nil else { return nil }
        let found = try await hits(query, page: page)
        let entries = try await stores.sharedEntries(ids: found.hits.map(\.id))
        let byID = Dictionary(entries.map { ($0.value.id, $0) }, uniquingKeysWith: { first, _ in first })
        let items = found.hits.compactMap { hit -> (ReadCache.Entry<StoreCard>, [SearchMatch])? in
            guard let store = byID[hit.id] else { return nil }
            return (store, hit.matches(name: store.value.name, category: store.value.categoryName, query: query))
        }
        return SharedSearchPage(items: items, nextCursor: found.nextCursor, approximate: found.approximate)
    }

    /// A page without its stores: which stores, in which order, matching what.
    package struct Hits: Sendable {
        package var hits: [Kept]
        package var nextCursor: String?
        package var approximate: Bool
        /// What the page's invalidation reads (`SearchInvalidation`).
        var scope: Scope

        /// Its bytes: a hit is 56 (a store id fits in a `String` inline), a dish 32 and its name, the cursor its
        /// characters, the scope its text, dishes and two positions.
        package var cost: Int {
            let scopeBytes = 160 + scope.lowered.count + scope.dishes.reduce(0) { $0 + 32 + $1.count }
            return hits.reduce(96 + scopeBytes + (nextCursor?.utf8.count ?? 0)) { sum, hit in
                sum + 56 + hit.dishes.reduce(0) { $0 + 32 + $1.name.utf8.count }
            }
        }
    }

    /// The page's hits, cached under `search` (a name, a category, archival, the vocabulary, an import: every page)
    /// and dropped one by one by the events of the reviews and scores they can see (`SearchInvalidation`); a page
    /// so dropped answers, `approximate`, while its refill waits at a full gate (`ReadCache.entryOrStale`). The
    /// stores themselves come from their own entries (`StoreRepository.views`), so a search entry is a few hundred
    /// bytes and ten thousand texts fit beside the stores.
    package func hits(_ query: SearchQuery, page: PageRequest) async throws -> Hits {
        guard let cache else { return try await readOrGlance(query, page: page) }
        _ = try Self.position(page.cursor, query: query)  // a cursor of another query is refused before any lookup
        let key = "q:\(page.limit):\(page.cacheKey):\(query.text)"
        let busy = query.countsReviews && gate.isFull
        let tags: @Sendable (Hits) -> [String] = { _ in ["search"] }
        let cost: @Sendable (Hits) -> Int = { $0.cost }
        let refill: @Sendable () async throws -> Hits = { try await read(query, page: page, waiting: false) }
        let found: (ReadCache.Entry<Hits>, stale: Bool)
        do {
            found = try await cache.entryOrStale(
                key, busy: busy, tags: tags, cost: cost, load: { try await read(query, page: page) }, refill: refill)
        } catch is AdmissionGate.Busy {
            // Turned away (the queue full, or a second waited): a glance now; the next asker queues again for
            // the whole page.
            return try await glance(query, page: page)
        }
        guard found.stale else { return found.0.value }
        // A page a review or a score changed since: its counts may be a little behind, as a cut page's are.
        var hits = found.0.value
        hits.approximate = true
        return hits
    }

    /// `read`, or a glance when the gate turned it away.
    private func readOrGlance(_ query: SearchQuery, page: PageRequest) async throws -> Hits {
        do {
            return try await read(query, page: page)
        } catch is AdmissionGate.Busy {
            return try await glance(query, page: page)
        }
    }

    /// The page read with a share of the budget behind `glances`; never kept (the next asker reads it whole).
    private func glance(_ query: SearchQuery, page: PageRequest) async throws -> Hits {
        Self.glanceCount.increment()
        return try await glances.run {
            try await read(query, page: page, budget: max(1, budget / Self.glanceShare), gated: false)
        }
    }

    static let glanceCount = Counter(label: "chidian_search_glances_total")

    /// One page's hits from PostgreSQL.
    /// `waiting: false`: refused at once when the gate is full (a refill beside a request); `gated: false` reads
    /// without it (a glance, behind its own gate).
    private func read(
        _ query: SearchQuery, page: PageRequest, waiting: Bool = true, budget: Int? = nil, gated: Bool = true
    ) async throws -> Hits {
        let after = try Self.position(page.cursor, query: query)
        guard query.canMatch else {
            let scope = Scope(query: query, dishes: [], start: after, end: nil)
            return Hits(hits: [], nextCursor: nil, approximate: false, scope: scope)
        }
        // Names queued by a write since the last pinyin query get their pinyin first.
        if query.pinyin != nil { try await PinyinIndex.refresh(database: database) }
        let limit = page.limit
        let statement = SearchPageStatement(
            query: query, after: after, limit: limit + 1, budget: budget ?? self.budget)
        let database = self.database.forReads
        let rows =
            query.countsReviews && gated
            ? try await gate.run(waiting: waiting) { try await database.run(statement) }
            : try await database.run(statement)
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
        let end = hits.count > limit ? hits[limit - 1].position : nil
        let next = end.map { Self.cursor($0, query: query) }
        let dishes = cache != nil && query.pinyin != nil ? try await spelledDishes(query) : []
        let scope = Scope(query: query, dishes: dishes, start: after, end: end)
        return Hits(hits: hits.prefix(limit).map(Kept.init), nextCursor: next, approximate: approximate, scope: scope)
    }

    /// The lowered vocabulary dishes a pinyin text spells: a cached page counts their reviews too.
    private func spelledDishes(_ query: SearchQuery) async throws -> [String] {
        try await database.forReads.query(
            """
            SELECT d.lname FROM search_pinyin p JOIN search_dishes d ON d.name COLLATE "C" = p.source
            WHERE p.ready AND (p.syllables = \(query.pinyin) OR p.initials = \(query.pinyin))
            """
        ).map { try $0.decode(String.self) }
    }

    static let rowsRead = Recorder(label: "chidian_search_rows_read")

    package static func cursor(_ position: Position, query: SearchQuery) -> String {
        Cursor(
            list: cursorList,
            keys: [query.text, String(position.group), String(position.count), position.score, position.id]
        ).token
    }

    /// The position after which the page starts; 400 `invalid_cursor` for a cursor of another list or query.
    package static func position(_ cursor: Cursor?, query: SearchQuery) throws -> Position? {
        guard let cursor else { return nil }
        let keys = try cursor.keys(
            for: cursorList,
            [.text(limit: SearchQuery.maxLength), .integer(0...2), .integer(0...Int(Int32.max)), .number, .id])
        guard keys[0] == query.text else { throw CursorError.otherSearch }
        return Position(group: Int(keys[1])!, count: Int(keys[2])!, score: keys[3], id: keys[4])
    }
}
