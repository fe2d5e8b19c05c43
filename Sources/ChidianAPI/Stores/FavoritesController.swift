import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Favorites: signed-in users only (a visitor has nobody to remember them for).
struct FavoritesController {
    let service: FavoriteService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.put("stores/:id/favorite", use: add)
        group.delete("stores/:id/favorite", use: remove)
        group.get("me/favorites", use: list)
    }

    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await service.set(true, storeID: try context.parameters.require("id"), viewer: context.viewer, user: user)
        return .noContent
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await service.set(false, storeID: try context.parameters.require("id"), viewer: context.viewer, user: user)
        return .noContent
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<StoreView>
    > {
        let user = try context.requireUser()
        return JSONResponse(
            try await service.stores.favorites(of: user.id, page: try PageRequest(request), viewer: user))
    }
}
