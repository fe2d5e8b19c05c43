import Foundation

/// Favorites' rules: signed-in users only, and the recommender hears of real changes.
package struct FavoriteService: Sendable {
    package let stores: StoreRepository
    /// A favorite is a strong sign of interest in the store's category.
    package let signals: InterestSignals?
    package let clock: @Sendable () -> Date

    package init(
        stores: StoreRepository, signals: InterestSignals? = nil, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.stores = stores
        self.signals = signals
        self.clock = clock
    }

    /// Favorites or unfavorites for the API and the web client alike; the recommender hears of real changes only.
    package func set(_ on: Bool, storeID: String, viewer: Viewer, user: AuthUser) async throws {
        let changed =
            on
            ? try await stores.favorite(storeID: storeID, userID: user.id)
            : try await stores.unfavorite(storeID: storeID, userID: user.id)
        if changed {
            await signals?.record(on ? .favorited : .unfavorited, viewer: viewer, storeID: storeID, at: clock())
        }
    }
}
