import Foundation

/// Store recommendations: "also viewed" on a store, and 猜你喜欢 for the viewer; for the API and the web.
package struct RecommendService: Sendable {
    package let stores: StoreRepository
    package let visits: StoreVisits
    package let candidates: StoreCandidates
    package let interests: InterestRepository
    package let clock: @Sendable () -> Date
    /// Impressions of 猜你喜欢's cards (counted as the feed's).
    package let insights: InsightCounter?

    package init(
        stores: StoreRepository, visits: StoreVisits, candidates: StoreCandidates, interests: InterestRepository,
        insights: InsightCounter? = nil, clock: @escaping @Sendable () -> Date
    ) {
        self.stores = stores
        self.visits = visits
        self.candidates = candidates
        self.interests = interests
        self.insights = insights
        self.clock = clock
    }

    /// Stores viewers of this one also opened (404 `store_not_found` for an unknown or archived store).
    /// `keep` false: the stores listed are not added to the cache (a page that shows them is cached whole).
    package func alsoViewed(storeID: String, limit: Int, viewer: Viewer, keep: Bool = true) async throws
        -> [StoreView]
    {
        guard try await stores.isLive(storeID, keep: keep) else { throw StoreError.notFound(id: storeID) }
        return try await alsoViewed(ofLive: storeID, limit: limit, viewer: viewer, keep: keep)
    }

    /// `alsoViewed` of a store the caller has just found live (the web store page, from the card it shows):
    /// without reading the store again, which a visitor's page did on every miss of this piece.
    package func alsoViewed(ofLive storeID: String, limit: Int, viewer: Viewer, keep: Bool) async throws
        -> [StoreView]
    {
        let ids = try await visits.alsoViewed(storeID: storeID, limit: limit, keep: keep)
        return try await stores.views(ids: ids, viewer: viewer.user, keep: keep).filter { $0.id != storeID }
    }

    /// 猜你喜欢 for the viewer (or nobody), nearest-aware when `near` is given.
    package func forYou(viewer: Viewer, near: NearQuery?, limit: Int, newVisitor: Bool = false) async throws
        -> [StoreView]
    {
        let ids = try await forYouIDs(viewer: viewer, near: near, limit: limit, newVisitor: newVisitor)
        return try await stores.views(ids: ids, viewer: viewer.user).map { $0.measured(from: near?.point) }
    }

    /// 猜你喜欢 without `near`, as the stores' shared cache entries: for a page that renders a store's card once per
    /// entry, not once per request (the home page).
    package func forYouEntries(viewer: Viewer, limit: Int, newVisitor: Bool) async throws
        -> [ReadCache.Entry<StoreCard>]
    {
        let ids = try await forYouIDs(viewer: viewer, near: nil, limit: limit, newVisitor: newVisitor)
        return try await stores.sharedEntries(ids: ids)
    }

    /// 猜你喜欢's store ids, in order.
    /// `newVisitor`: the visitor's id was minted by this request, so nothing is known of them and nothing is read.
    package func forYouIDs(viewer: Viewer, near: NearQuery?, limit: Int, newVisitor: Bool = false) async throws
        -> [String]
    {
        let viewer = newVisitor ? Viewer.nobody : viewer
        let now = clock()
        var known: [InterestRepository.Interest] = []
        if let key = viewer.interestKey { known = try await interests.currentInterests(viewer: key, at: now) }
        let weights = PickRanking.weights(known)
        let top = known.prefix(StoreFeed.categories).map(\.categoryID)
        let asker = StoreCandidates.Viewer(key: viewer.interestKey, userID: viewer.user?.id, now: now)
        let found: [StoreCandidates.Candidate]
        if let near, let walked = try await candidates.walkedForYou(near: near, for: asker, stores: stores) {
            found = walked
        } else if near == nil,
            let composed = try await candidates.composedTaste(categories: top, for: asker, stores: stores)
        {
            found = composed
        } else {
            found = try await candidates.forYou(categories: top, near: near, for: asker)
        }
        let ids = StoreFeed.rank(found, interests: weights, radius: near.map { Double($0.radius) }, limit: limit)
        insights?.shown(ids, as: .feed)
        return ids
    }
}
