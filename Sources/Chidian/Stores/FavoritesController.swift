import HTTPTypes
import Hummingbird

/// Favorites: signed-in users only (a visitor has nobody to remember them for).
struct FavoritesController {
    let stores: StoreRepository

    init(database: Database) {
        stores = StoreRepository(database: database)
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.put("stores/:id/favorite", use: add)
        group.delete("stores/:id/favorite", use: remove)
        group.get("me/favorites", use: list)
    }

    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await stores.favorite(storeID: try context.parameters.require("id"), userID: user.id)
        return .noContent
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await stores.unfavorite(storeID: try context.parameters.require("id"), userID: user.id)
        return .noContent
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Page<StoreView>> {
        let user = try context.requireUser()
        return JSONResponse(try await stores.favorites(of: user.id, page: try PageRequest(request), viewer: user))
    }
}
