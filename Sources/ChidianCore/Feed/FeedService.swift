import Foundation

/// The featured feed of reviews, personalised by the viewer's interests; for the API and the web.
package struct FeedService: Sendable {
    package let feed: FeedRepository
    package let interests: InterestRepository
    /// Where what a first page showed is recorded (batched in `serve`).
    package let signals: InterestSignals
    package let candidates: FeedCandidates
    package let clock: @Sendable () -> Date
    /// How many first-page places may explore (`FeedPlanner.mixed`).
    package let explorePlaces: Int
    /// Impressions of the reviews' stores.
    package let insights: InsightCounter?

    package init(
        feed: FeedRepository, candidates: FeedCandidates, interests: InterestRepository, signals: InterestSignals,
        explorePlaces: Int = FeedPlanner.explorePlaces, insights: InsightCounter? = nil,
        clock: @escaping @Sendable () -> Date
    ) {
        self.feed = feed
        self.candidates = candidates
        self.interests = interests
        self.signals = signals
        self.explorePlaces = explorePlaces
        self.insights = insights
        self.clock = clock
    }

    package struct CategoryScore: Encodable, Sendable {
        package var id: String
        package var name: String
        package var score: Double
    }

    package struct Personalization: Encodable, Sendable {
        package var categories: [CategoryScore]
        /// Categories of this page's reviews shown to explore, not because the viewer opened them.
        package var explore: [CommentView.CategoryRef]
        /// The page was arranged for a viewer without history (cold start).
        package var coldStart: Bool
    }

    package struct FeedPage: Encodable, Sendable {
        package var items: [CommentView]
        @Nullable package var nextCursor: String?
        package var personalization: Personalization
        /// The items' JSON as everyone sees them, by id, when cached (`FeedLists.views`): written as they are.
        package var rendered: [String: [UInt8]] = [:]

        enum CodingKeys: CodingKey { case items, nextCursor, personalization }
    }

    /// The viewer's featured page, for the API and the web client alike. A first page reads the viewer's state
    /// (interests and exploration counts; for nobody, everyone's counts) and recent reviews of every category, then
    /// either mixes the first ten by the evidence for each category (`mixedPlan`) or, without history, sets cold
    /// start's ten reviews first, and records what it showed. A cursor page is the walk alone (with the pinned
    /// reviews whose places fall on it).
    /// `newVisitor`: the visitor's id was minted by this request, so their state is nobody's, read with no statement;
    /// what the page shows is still recorded for them.
    package func featuredPage<G: RandomNumberGenerator>(
        viewer: Viewer, page: PageRequest, near: NearQuery? = nil, newVisitor: Bool = false, using generator: inout G
    ) async throws -> FeedPage {
        let result = try await walkFeatured(
            viewer: viewer, page: page, near: near, newVisitor: newVisitor, using: &generator)
        insights?.shown(result.items.map(\.storeId), as: .feed)
        return result
    }

    private func walkFeatured<G: RandomNumberGenerator>(
        viewer: Viewer, page: PageRequest, near: NearQuery?, newVisitor: Bool, using generator: inout G
    ) async throws -> FeedPage {
        let viewerID = viewer.user?.id
        if let cursor = page.cursor {
            let result = try await feed.page(cursor: cursor, limit: page.limit, viewerID: viewerID)
            return FeedPage(
                items: result.items, nextCursor: result.nextCursor,
                personalization: Self.personalization(result, names: result.names, cold: false))
        }
        let now = clock()
        let state = try await interests.state(viewer: newVisitor ? nil : viewer.interestKey, at: now)
        var names = state.names
        let plan: FeedRepository.Plan
        let places: [FeedPlanner.Place]
        if state.isCold {
            let reviews = try await candidates.coldStart(near: near, at: now)
            let weights = Exploration.sample(state.arms, using: &generator)
            let order = FeedPlanner.coldStartOrder(
                reviews, categoryWeights: weights, radius: near.map { Double($0.radius) })
            plan = FeedRepository.Plan(
                ordering: .init(categories: []),
                pinned: Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0, reviews[$1].id) }))
            places = order.map { FeedPlanner.Place(category: reviews[$0].categoryID, exploring: true) }
        } else {
            let current = state.interests.prefix(FeedRepository.maxCategories)
            for interest in current { names[interest.categoryID] = interest.categoryName }
            places = mixedPlaces(state, using: &generator)
            // Places of the walk's own category need no candidates (a page without exploring reads none).
            let walked = current.first?.categoryID
            let reviews =
                places.contains { $0.category != walked } ? try await candidates.coldStart(near: near, at: now) : []
            plan = mixedPlan(state, places: places, reviews: reviews, radius: near.map { Double($0.radius) })
        }
        let result = try await feed.page(plan: plan, limit: page.limit, viewerID: viewerID)
        if let key = viewer.interestKey { await signals.shown(viewer: key, places: places, at: now) }
        return FeedPage(
            items: result.items, nextCursor: result.nextCursor,
            personalization: Self.personalization(result, names: names, cold: state.isCold), rendered: result.rendered)
    }

    package static func personalization(_ result: FeedRepository.Result, names: [String: String], cold: Bool)
        -> Personalization
    {
        Personalization(
            categories: result.ordering.categories.compactMap { entry in
                names[entry.id].map { CategoryScore(id: entry.id, name: $0, score: entry.score) }
            },
            explore: result.explored, coldStart: cold)
    }
}

extension FeedService.FeedPage: JSONWritable {
    package var jsonCapacity: Int { 1024 + rendered.values.reduce(0) { $0 + $1.count } }

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json, copying: rendered) }
            json.key("nextCursor"); json.string(nextCursor)
            json.key("personalization")
            json.object { json in
                json.key("categories")
                json.array(personalization.categories) { json, category in
                    json.object { json in
                        json.key("id"); json.string(category.id)
                        json.key("name"); json.string(category.name)
                        json.key("score"); json.double(category.score)
                    }
                }
                json.key("explore")
                json.array(personalization.explore) { json, category in
                    json.object { json in
                        json.key("id"); json.string(category.id)
                        json.key("name"); json.string(category.name)
                    }
                }
                json.key("coldStart"); json.bool(personalization.coldStart)
            }
        }
    }
}
