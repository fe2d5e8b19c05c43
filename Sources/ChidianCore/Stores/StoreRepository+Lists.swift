import Foundation
import PostgresNIO

/// Keyset-paged store lists. Each query picks the page's ids and sort keys (as text, so the cursor repeats
/// them exactly) and `views(ids:viewer:)` then loads the stores in that order: two queries per page.
extension StoreRepository {
    /// `GET /v1/stores`: live stores, optionally in one category (the caller checks it exists), at most a price,
    /// within `near`'s radius and open at `now`. `near` is a GiST search on `stores_location` (ST_DWithin on the
    /// sphere); `openNow` a containment test of migration 017's minutes of the week in each store's zone.
    public func list(
        sort: StoreSort, categoryID: String?, maxPrice: Int? = nil, near: NearQuery? = nil, openNow: Bool = false,
        now: Date = ServerClock.now(), page: PageRequest, viewer: AuthUser?
    ) async throws -> Page<StoreView> {
        if sort == .distance, let near,
            let walked = try await walkedPage(
                categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, now: now, page: page)
        {
            return try await self.page(ids: walked.ids, next: walked.next, viewer: viewer, near: near.point)
        }
        let query = try listQuery(
            sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, now: now, page: page)
        return try await self.page(query, limit: page.limit, list: sort.cursorList, viewer: viewer, near: near?.point)
    }

    /// `list` as everyone sees it, written from each store's cached JSON (`SharedStorePage`); nil without the cache.
    package func sharedList(
        sort: StoreSort, categoryID: String?, maxPrice: Int?, near: NearQuery?, openNow: Bool, page: PageRequest
    ) async throws -> SharedStorePage? {
        guard cache != nil else { return nil }
        let now = ServerClock.now()
        let ids: [String], next: String?
        if sort == .distance, let near,
            let walked = try await walkedPage(
                categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, now: now, page: page)
        {
            (ids, next) = walked
        } else {
            let query = try listQuery(
                sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, now: now,
                page: page)
            (ids, next) = try await pageIDs(query, limit: page.limit, list: sort.cursorList)
        }
        let point = near?.point
        let items = try await sharedEntries(ids: ids).map { entry in
            (store: entry, distance: entry.value.meters(from: point))
        }
        return SharedStorePage(items: items, nextCursor: next)
    }

    /// The statement of one `list` page: rows of (id, sort key, tie-break key), `page.limit + 1` of them, from
    /// `StoreFilter`'s conditions and the sort's keyset.
    private func listQuery(
        sort: StoreSort, categoryID: String?, maxPrice: Int?, near: NearQuery?, openNow: Bool, now: Date,
        page: PageRequest
    ) throws -> PostgresQuery {
        let keys = try page.cursor?.keys(for: sort.cursorList, sort.cursorKeys)
        var sql = SQLBuilder()
        let filter = StoreFilter(categoryID: categoryID, maxPrice: maxPrice, near: near, openAt: openNow ? now : nil)
            .bind(&sql)
        let limit = sql.bind(page.limit + 1)
        guard let keyset = sort.keyset else {
            guard let point = filter.point, let meters = filter.placeMeters, let radius = filter.radius else {
                throw PlaceError.nearRequired
            }
            var knnAfter = "", after = ""
            if let keys {
                let (k0, k1) = (sql.bind(keys[0]), sql.bind(keys[1]))
                knnAfter =
                    " AND (\(meters) > \(k0)::float8 OR (\(meters) = \(k0)::float8 AND s.id COLLATE \"C\" < \(k1)::text))"
                after =
                    " AND (d.meters > \(k0)::float8 OR (d.meters = \(k0)::float8 AND s.id COLLATE \"C\" < \(k1)::text))"
            }
            // Two steps, so the page reads about `limit` rows however dense the stores are. The KNN scan (`<->`,
            // ordered by the GiST index) finds the limit-th nearest qualifying store; the exact step then sorts
            // every store within that distance (+1 m, so float differences and stores at one address tie in) by
            // (metres, id descending in byte order), the order the cursor repeats. Fewer than `limit` found: the
            // whole radius. Which stores qualify and their order are decided by `place_meters`, as the near-me
            // walk decides them (`walkedPage`); PostGIS's own distances only bound the search.
            let within = """
                least(\(radius), coalesce(
                    (SELECT CASE WHEN count(*) < \(limit) THEN NULL ELSE max(m) + 1 END FROM knn), \(radius)))
                """
            return sql.query(
                """
                WITH knn AS (
                    SELECT s.location <-> \(point) AS m FROM stores s
                    WHERE \(filter.conditions(within: "\(radius) + 1")) AND \(meters) <= \(radius)\(knnAfter)
                    ORDER BY s.location <-> \(point) LIMIT \(limit))
                SELECT s.id, d.meters::text, s.id FROM stores s CROSS JOIN LATERAL (SELECT \(meters) AS meters) d
                WHERE \(filter.conditions(within: within + " + 1")) AND d.meters <= \(radius)\(after)
                ORDER BY d.meters, s.id COLLATE "C" DESC LIMIT \(limit)
                """)
        }
        var after = ""
        if let keys { after = " AND " + keyset.after(sql.bind(keys[0]), sql.bind(keys[1])) }
        return sql.query(
            """
            SELECT s.id, (\(keyset.key))::text, s.id FROM stores s
            WHERE \(filter.conditions())\(after)
            ORDER BY \(keyset.order) LIMIT \(limit)
            """)
    }

    /// `GET /v1/me/stores`: a manager's live stores, newest first.
    public func managed(by managerID: String, page: PageRequest, viewer: AuthUser?) async throws -> Page<StoreView> {
        let list = "stores.managed"
        let keys = try page.cursor?.keys(for: list, [.timestamp, .id])
        let (k0, k1) = (keys?[0], keys?[1])
        return try await self.page(
            """
            SELECT s.id, s.created_at::text, s.id FROM stores s
            WHERE s.manager_id = \(managerID) AND s.archived_at IS NULL
                AND (\(k0)::timestamptz IS NULL OR (s.created_at, s.id) < (\(k0)::timestamptz, \(k1)::text))
            ORDER BY s.created_at DESC, s.id DESC LIMIT \(page.limit + 1)
            """, limit: page.limit, list: list, viewer: viewer)
    }

    /// `GET /v1/me/favorites`: the user's favorited live stores, most recently favorited first.
    public func favorites(of userID: String, page: PageRequest, viewer: AuthUser?) async throws -> Page<StoreView> {
        let list = "stores.favorites"
        let keys = try page.cursor?.keys(for: list, [.timestamp, .id])
        let (k0, k1) = (keys?[0], keys?[1])
        return try await self.page(
            """
            SELECT f.store_id, f.created_at::text, f.store_id FROM favorites f
            JOIN stores s ON s.id = f.store_id AND s.archived_at IS NULL
            WHERE f.user_id = \(userID)
                AND (\(k0)::timestamptz IS NULL OR (f.created_at, f.store_id) < (\(k0)::timestamptz, \(k1)::text))
            ORDER BY f.created_at DESC, f.store_id DESC LIMIT \(page.limit + 1)
            """, limit: page.limit, list: list, viewer: viewer)
    }

    /// `GET /v1/promotions/daily`: live stores with ad spend, highest first, ties by earlier creation then id.
    public func promoted(limit: Int, viewer: AuthUser?) async throws -> [StoreView] {
        if cache != nil { return try await personalised(try await promotedEntry(limit: limit).value, for: viewer) }
        let ids = try await database.forReads.run(StoreStatements.Promoted(limit: limit))
        return try await views(ids: ids, viewer: viewer)
    }

    /// The daily promotions as the stores' shared cache entries (a page that renders each card once per entry).
    package func promotedEntries(limit: Int) async throws -> [ReadCache.Entry<StoreCard>] {
        let ids =
            cache != nil
            ? try await promotedEntry(limit: limit).value.map(\.id)
            : try await database.forReads.run(StoreStatements.Promoted(limit: limit))
        return try await sharedEntries(ids: ids)
    }

    /// The daily promotions as everyone sees them, cached under `daily` and each store's tag.
    package func promotedEntry(limit: Int) async throws -> ReadCache.Entry<[StoreView]> {
        let load = { @Sendable in
            try await sharedViews(ids: try await database.forReads.run(StoreStatements.Promoted(limit: limit)))
        }
        let render: @Sendable ([StoreView]) throws -> [UInt8] = {
            try JSONWriter.bytes(of: StoreList(items: $0.map { $0.personalised(for: nil) }))
        }
        return try await ReadCache.rendered(
            in: cache, "daily:\(limit)", tags: { ["daily"] + $0.map { "s:" + $0.id } }, render: render, load: load)
    }

    /// Which of `ids` pass `filter` (search's hits within `near`'s radius): the lists' conditions, in SQL.
    package func ids(_ ids: [String], passing filter: StoreFilter) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        var sql = SQLBuilder()
        var filter = filter
        filter.ids = ids
        let bound = filter.bind(&sql)
        let rows = try await database.forReads.query(sql.query("SELECT s.id FROM stores s WHERE \(bound.conditions())"))
        return Set(try rows.map { try $0.decode(String.self) })
    }

    /// Runs a page query whose rows are (id, sort key, tie-break key) and loads the stores.
    package func page(_ query: PostgresQuery, limit: Int, list: String, viewer: AuthUser?, near: GeoPoint? = nil)
        async throws
        -> Page<StoreView>
    {
        let (ids, next) = try await pageIDs(query, limit: limit, list: list)
        return try await page(ids: ids, next: next, viewer: viewer, near: near)
    }

    /// The stores of a page's ids, in order, measured from `near`.
    func page(ids: [String], next: String?, viewer: AuthUser?, near: GeoPoint?) async throws -> Page<StoreView> {
        let views = try await self.views(ids: ids, viewer: viewer)
        let byID = Dictionary(views.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // A store archived between the two queries drops out; the cursor still follows the keys read.
        return Page(items: ids.compactMap { byID[$0]?.measured(from: near) }, nextCursor: next)
    }

    /// A page query's ids (at most `limit`) and the cursor after them. A forged cursor whose keys do not parse as
    /// their SQL type (a data exception, class 22) is 400 `invalid_cursor`, not a 500.
    func pageIDs(_ query: PostgresQuery, limit: Int, list: String) async throws -> (
        ids: [String], next: String?
    ) {
        let rows: [PostgresRow]
        do {
            rows = try await database.forReads.query(query)
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        let keyed = try rows.map { row in
            let (id, key, tieBreak) = try row.decodeAll((String, String, String).self)
            return (id: id, keys: [key, tieBreak])
        }
        let next = keyed.count > limit ? Cursor(list: list, keys: keyed[limit - 1].keys).token : nil
        return (keyed.prefix(limit).map(\.id), next)
    }
}
