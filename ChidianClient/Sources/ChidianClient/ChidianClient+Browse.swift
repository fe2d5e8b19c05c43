/// What anyone can read: 精选展示 (daily promotions and the featured feed), search, stores and their reviews.
extension ChidianClient {
    /// Today's promoted stores, most ad spend first.
    public func dailyPromotions(limit: Int = 10) async throws -> [Store] {
        let output = try await api.dailyPromotions(query: .init(limit: limit))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json.items)
    }

    /// One page of the featured feed, personalised for the signed-in user or this client's visitor id; nil cursor
    /// for the first page (pull to refresh asks for it again).
    public func featuredPage(cursor: String? = nil, limit: Int = 20) async throws -> FeedPage {
        let output = try await api.featuredFeed(query: .init(limit: limit, cursor: cursor))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// The featured feed's reviews, page after page (its order is frozen at the first page).
    public func featuredFeed(pageSize: Int = 20) -> Paginated<Comment> {
        Paginated { cursor in
            let page = try await self.featuredPage(cursor: cursor, limit: pageSize)
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// The categories the viewer's clicks favour, highest score first.
    public func interests() async throws -> [Interest] {
        let output = try await api.listInterests()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json.items)
    }

    /// Every category, by name.
    public func categories() async throws -> [Category] {
        let output = try await api.listCategories()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json.items)
    }

    /// Stores matching `text` (names, categories, dishes, pinyin, reviews); with `near`, only those within
    /// `radius` metres (3,000 by default), each with `distanceMeters`.
    public func search(
        _ text: String, near: Store.Location? = nil, radius: Int? = nil, pageSize: Int = 20
    ) -> Paginated<SearchResult> {
        Paginated { cursor in
            let output = try await self.api.search(
                query: .init(q: text, near: near?.query, radius: radius, limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// Stores, optionally of one category, at most `maxPrice` per person, open now, or near a point (附近: within
    /// `radius` metres, 3,000 by default, each with `distanceMeters`; `sort: .distance` puts the nearest first).
    public func stores(
        category: String? = nil, sort: StoreSort? = nil, maxPrice: Int? = nil, openNow: Bool = false,
        near: Store.Location? = nil, radius: Int? = nil, pageSize: Int = 20
    ) -> Paginated<Store> {
        Paginated { cursor in
            let output = try await self.api.listStores(
                query: .init(
                    category: category, sort: sort.flatMap { .init(rawValue: $0.rawValue) }, maxPrice: maxPrice,
                    open: openNow ? .now : nil, near: near?.query, radius: radius, limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// A store page.
    public func store(_ id: String) async throws -> Store {
        let output = try await api.getStore(path: .init(id: id))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// A store's reviews and notices; with `recommended` false, its reviews judged not recommended instead
    /// (newest first).
    public func comments(
        ofStore id: String, kind: Comment.Kind? = nil, sort: CommentSort? = nil, recommended: Bool = true,
        pageSize: Int = 20
    ) -> Paginated<Comment> {
        Paginated { cursor in
            let output = try await self.api.listStoreComments(
                path: .init(id: id),
                query: .init(
                    kind: kind.flatMap { .init(rawValue: $0.rawValue) },
                    sort: sort.flatMap { .init(rawValue: $0.rawValue) },
                    recommended: recommended ? nil : ._false,
                    limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// A review page; opening it counts as a click for the featured feed unless `track` is false.
    public func comment(_ id: String, track: Bool = true) async throws -> Comment {
        let output = try await api.getComment(path: .init(id: id), query: .init(track: track ? nil : ._false))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }
}
