import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Store recommendations: "also viewed" on a store, and 猜你喜欢 for the viewer.
struct RecommendController {
    let service: RecommendService

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
        if service.stores.cache != nil {
            // From the stores' cached JSON (writing ten stores again was half its server time).
            _ = try await service.stores.sharedEntry(id: id)
            let ids = try await service.visits.alsoViewed(storeID: id, limit: limit)
            let entries = try await service.stores.sharedEntries(ids: ids).filter { $0.value.id != id }
            guard let user = context.viewer.user else {
                return try WrittenJSON(body: SharedStoreList(items: entries.map { ($0, nil) }))
                    .response(from: request, context: context)
            }
            return try WrittenJSON(body: try await service.stores.personalList(entries, for: user, near: nil))
                .response(from: request, context: context)
        }
        return try JSONResponse(
            StoreList(items: try await service.alsoViewed(storeID: id, limit: limit, viewer: context.viewer))
        ).response(from: request, context: context)
    }

    @Sendable func forYouRoute(_ request: Request, context: AppRequestContext) async throws -> Response {
        let near = try QueryParameters(request).position()
        let limit = try Self.limit(request)
        if context.viewer.user == nil, service.stores.cache != nil {
            let ids = try await service.forYouIDs(viewer: context.viewer, near: near, limit: limit)
            let items = try await service.stores.sharedEntries(ids: ids).map { entry in
                (entry, entry.value.meters(from: near?.point))
            }
            var response = try WrittenJSON(body: SharedStoreList(items: items)).response(
                from: request, context: context)
            response.headers[HTTPField.Name.cacheControl] = "private, no-store"
            return response
        }
        if let user = context.viewer.user, service.stores.cache != nil {
            let ids = try await service.forYouIDs(viewer: context.viewer, near: near, limit: limit)
            let entries = try await service.stores.sharedEntries(ids: ids)
            let list = try await service.stores.personalList(entries, for: user, near: near?.point)
            var response = try WrittenJSON(body: list).response(from: request, context: context)
            response.headers[HTTPField.Name.cacheControl] = "private, no-store"
            return response
        }
        let items = try await service.forYou(viewer: context.viewer, near: near, limit: limit)
        return try JSONResponse(StoreList(items: items), headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
    }
}

extension RecommendController.StoreList: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items"); json.array(items) { json, store in store.write(to: &json) }
        }
    }
}
