import Foundation
import HTTPTypes
import Hummingbird

/// The featured feed and the viewer's interests ("Feed and recommendations").
struct FeedController {
    let feed: FeedRepository
    let interests: InterestRepository
    let candidates: FeedCandidates
    let clock: @Sendable () -> Date
    /// The first page's places that explore (`FeedPlanner.places`).
    let explorePlaces: [Int]
    /// Impressions of the reviews' stores.
    let insights: InsightCounter?

    init(
        database: Database, interests: InterestRepository,
        explorePlaces: Int = FeedPlanner.explorePlaces.count, insights: InsightCounter? = nil,
        clock: @escaping @Sendable () -> Date
    ) {
        self.insights = insights
        feed = FeedRepository(database: database)
        candidates = FeedCandidates(database: database)
        self.interests = interests
        self.explorePlaces = FeedPlanner.places(exploring: explorePlaces)
        self.clock = clock
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("feed/featured", use: featured)
        group.get("me/interests", use: listInterests)
        group.delete("me/interests", use: resetInterests)
    }

    struct CategoryScore: Encodable, Sendable {
        var id: String
        var name: String
        var score: Double
    }

    struct Personalization: Encodable, Sendable {
        var categories: [CategoryScore]
        /// Categories of this page's reviews shown to explore, not because the viewer opened them.
        var explore: [CommentView.CategoryRef]
        /// The page was arranged for a viewer without history (cold start).
        var coldStart: Bool
    }

    struct FeedPage: Encodable, Sendable {
        var items: [CommentView]
        @Nullable var nextCursor: String?
        var personalization: Personalization
    }

    @Sendable func featured(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let near = try NearQuery.parse(near: query["near"].map(String.init), radius: query["radius"].map(String.init))
        var generator = SeededRandom.forRequest()
        let page = try await featuredPage(
            viewer: context.viewer, page: try PageRequest(request), near: near, using: &generator)
        // Exploration and cold start sample: a page is this viewer's, this time.
        return try JSONResponse(page, headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
    }

    /// The viewer's featured page, for the API and the web client alike. A first page reads the viewer's state
    /// (interests and exploration counts; for nobody, everyone's counts), then either walks their categories with
    /// two places given to exploring categories they have not shown, or, without history, sets cold start's ten
    /// reviews first. A cursor page is the walk alone (with the pinned reviews whose places fall on it).
    func featuredPage<G: RandomNumberGenerator>(
        viewer: Viewer, page: PageRequest, near: NearQuery? = nil, using generator: inout G
    ) async throws -> FeedPage {
        let result = try await walkFeatured(viewer: viewer, page: page, near: near, using: &generator)
        insights?.shown(result.items.map(\.storeId), as: .feed)
        return result
    }

    private func walkFeatured<G: RandomNumberGenerator>(
        viewer: Viewer, page: PageRequest, near: NearQuery?, using generator: inout G
    ) async throws -> FeedPage {
        let viewerID = viewer.user?.id
        if let cursor = page.cursor {
            let result = try await feed.page(cursor: cursor, limit: page.limit, viewerID: viewerID)
            return FeedPage(
                items: result.items, nextCursor: result.nextCursor,
                personalization: Self.personalization(result, names: result.names, cold: false))
        }
        let now = clock()
        let state = try await interests.state(viewer: viewer.interestKey, at: now)
        var plan: FeedRepository.Plan
        var names = state.names
        var shown: [String] = []
        var own: String? = nil
        if state.isCold {
            let reviews = try await candidates.coldStart(near: near, at: now)
            let weights = Exploration.sample(state.arms, using: &generator)
            let order = FeedPlanner.coldStart(
                reviews, categoryWeights: weights, radius: near.map { Double($0.radius) })
            plan = FeedRepository.Plan(
                ordering: .init(categories: []), pinned: Dictionary(uniqueKeysWithValues: order.enumerated().map { $0 })
            )
            let byID = Dictionary(reviews.map { ($0.id, $0.categoryID) }) { a, _ in a }
            shown = Array(Set(order.compactMap { byID[$0] }))
        } else {
            let current = state.interests.prefix(FeedRepository.maxCategories)
            for interest in current { names[interest.categoryID] = interest.categoryName }
            let ordering = FeedRepository.Ordering(categories: current.map { ($0.categoryID, $0.score) })
            let top = current[current.startIndex].categoryID
            let allocated = Exploration.allocate(
                own: state.arms.first { $0.categoryID == top }, unshown: state.unshown(), places: explorePlaces,
                using: &generator)
            let reviews = try await candidates.explore(categories: allocated.map(\.category), excluding: [])
            var pinned: [Int: String] = [:]
            for found in reviews {
                if let place = allocated.first(where: { $0.category == found.category })?.place {
                    pinned[place] = found.review
                }
            }
            plan = FeedRepository.Plan(ordering: ordering, pinned: pinned, exploring: Set(pinned.keys))
            shown = reviews.map(\.category)
            own = top
        }
        let result = try await feed.page(plan: plan, limit: page.limit, viewerID: viewerID)
        if let key = viewer.interestKey {
            // The top category fills the first ten's other places (when it has that many reviews; close enough).
            try await interests.recordShown(
                viewer: key, own: own, places: FeedRepository.pinnedReach - shown.count, explored: shown.sorted(),
                at: now, shard: Int16.random(in: 0..<16, using: &generator))
        }
        return FeedPage(
            items: result.items, nextCursor: result.nextCursor,
            personalization: Self.personalization(result, names: names, cold: state.isCold))
    }

    static func personalization(_ result: FeedRepository.Result, names: [String: String], cold: Bool)
        -> Personalization
    {
        Personalization(
            categories: result.ordering.categories.compactMap { entry in
                names[entry.id].map { CategoryScore(id: entry.id, name: $0, score: entry.score) }
            },
            explore: result.explored, coldStart: cold)
    }

    struct InterestItem: Encodable, Sendable {
        struct Category: Encodable, Sendable {
            var id: String
            var name: String
        }
        var category: Category
        var score: Double
        var clicks: Int
    }

    struct InterestList: Encodable, Sendable {
        var items: [InterestItem]
    }

    @Sendable func listInterests(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        InterestList
    > {
        guard let viewer = context.viewer.interestKey else { throw Problem.loginRequired }
        let list = try await interests.interests(viewer: viewer, at: clock())
        return JSONResponse(
            InterestList(
                items: list.map {
                    InterestItem(
                        category: .init(id: $0.categoryID, name: $0.categoryName), score: $0.score, clicks: $0.clicks)
                }))
    }

    @Sendable func resetInterests(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        guard let viewer = context.viewer.interestKey else { throw Problem.loginRequired }
        try await interests.reset(viewer: viewer)
        return .noContent
    }
}

extension FeedController.FeedPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
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
