import Foundation
import HTTPTypes
import Hummingbird

/// Favorites: signed-in users only (a visitor has nobody to remember them for).
struct FavoritesController {
    let stores: StoreRepository
    /// A favorite is a strong sign of interest in the store's category.
    let signals: InterestSignals?
    let clock: @Sendable () -> Date

    init(database: Database, signals: InterestSignals? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        stores = StoreRepository(database: database)
        self.signals = signals
        self.clock = clock
    }

    /// Favorites or unfavorites for the API and the web client alike; the recommender hears of real changes only.
    func set(_ on: Bool, storeID: String, viewer: Viewer, user: AuthUser) async throws {
        let changed =
            on
            ? try await stores.favorite(storeID: storeID, userID: user.id)
            : try await stores.unfavorite(storeID: storeID, userID: user.id)
        if changed {
            await signals?.record(on ? .favorited : .unfavorited, viewer: viewer, storeID: storeID, at: clock())
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.put("stores/:id/favorite", use: add)
        group.delete("stores/:id/favorite", use: remove)
        group.get("me/favorites", use: list)
    }

    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await set(true, storeID: try context.parameters.require("id"), viewer: context.viewer, user: user)
        return .noContent
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await set(false, storeID: try context.parameters.require("id"), viewer: context.viewer, user: user)
        return .noContent
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Page<StoreView>> {
        let user = try context.requireUser()
        return JSONResponse(try await stores.favorites(of: user.id, page: try PageRequest(request), viewer: user))
    }
}
