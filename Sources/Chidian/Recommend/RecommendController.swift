import Foundation
import HTTPTypes
import Hummingbird

/// Store recommendations: "also viewed" on a store, and 猜你喜欢 for the viewer.
struct RecommendController {
    let stores: StoreRepository
    let visits: StoreVisits
    let storeFeed: StoreFeed
    let interests: InterestRepository
    let clock: @Sendable () -> Date
    /// Impressions of 猜你喜欢's cards (counted as the feed's).
    let insights: InsightCounter?

    init(
        database: Database, cache: ReadCache?, interests: InterestRepository, insights: InsightCounter? = nil,
        clock: @escaping @Sendable () -> Date
    ) {
        self.insights = insights
        stores = StoreRepository(database: database, cache: cache)
        visits = StoreVisits(database: database)
        storeFeed = StoreFeed(database: database)
        self.interests = interests
        self.clock = clock
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/also-viewed", use: alsoViewedRoute)
        group.get("feed/stores", use: forYouRoute)
    }

    struct StoreList: Encodable, Sendable {
        var items: [StoreView]
    }

    static func limit(_ request: Request) throws -> Int {
        try PageRequest(request, defaultLimit: 10, maxLimit: 50).limit
    }

    @Sendable func alsoViewedRoute(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let limit = try Self.limit(request)
        if context.viewer.user == nil, stores.cache != nil {
            // Everyone's list from the stores' cached JSON (writing ten stores again was half its server time).
            _ = try await stores.sharedEntry(id: id)
            let ids = try await visits.alsoViewed(storeID: id, limit: limit)
            let entries = try await stores.sharedEntries(ids: ids).filter { $0.value.id != id }
            return try WrittenJSON(body: SharedStoreList(items: entries.map { ($0, nil) }))
                .response(from: request, context: context)
        }
        return try JSONResponse(
            StoreList(items: try await alsoViewed(storeID: id, limit: limit, viewer: context.viewer))
        ).response(from: request, context: context)
    }

    /// Stores viewers of this one also opened (404 `store_not_found` for an unknown or archived store).
    func alsoViewed(storeID: String, limit: Int, viewer: Viewer) async throws -> [StoreView] {
        guard PlausibleID.check(storeID), try await stores.view(id: storeID, viewer: nil) != nil else {
            throw StoreError.notFound(id: storeID)
        }
        let ids = try await visits.alsoViewed(storeID: storeID, limit: limit)
        return try await stores.views(ids: ids, viewer: viewer.user).filter { $0.id != storeID }
    }

    @Sendable func forYouRoute(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let near = try NearQuery.parse(near: query["near"].map(String.init), radius: query["radius"].map(String.init))
        let limit = try Self.limit(request)
        if context.viewer.user == nil, stores.cache != nil {
            let ids = try await forYouIDs(viewer: context.viewer, near: near, limit: limit)
            let items = try await stores.sharedEntries(ids: ids).map { entry in
                (entry, entry.value.measured(from: near?.point).distanceMeters)
            }
            var response = try WrittenJSON(body: SharedStoreList(items: items)).response(
                from: request, context: context)
            response.headers[HTTPField.Name.cacheControl] = "private, no-store"
            return response
        }
        let items = try await forYou(viewer: context.viewer, near: near, limit: limit)
        return try JSONResponse(StoreList(items: items), headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
    }

    /// 猜你喜欢 for the viewer (or nobody), nearest-aware when `near` is given.
    func forYou(viewer: Viewer, near: NearQuery?, limit: Int) async throws -> [StoreView] {
        let ids = try await forYouIDs(viewer: viewer, near: near, limit: limit)
        return try await stores.views(ids: ids, viewer: viewer.user).map { $0.measured(from: near?.point) }
    }

    /// 猜你喜欢's store ids, in order.
    func forYouIDs(viewer: Viewer, near: NearQuery?, limit: Int) async throws -> [String] {
        let now = clock()
        var known: [InterestRepository.Interest] = []
        if let key = viewer.interestKey { known = try await interests.interests(viewer: key, at: now) }
        let weights = PickRanking.weights(known)
        let top = known.prefix(StoreFeed.categories).map(\.categoryID)
        let found = try await storeFeed.candidates(
            viewer: viewer.interestKey, userID: viewer.user?.id, categories: top, near: near, at: now)
        let ids = StoreFeed.rank(found, interests: weights, radius: near.map { Double($0.radius) }, limit: limit)
        insights?.shown(ids, as: .feed)
        return ids
    }
}

extension RecommendController.StoreList: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items"); json.array(items) { json, store in store.write(to: &json) }
        }
    }
}
