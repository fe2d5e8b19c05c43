import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Search" route. Open to everyone; the viewer only decides `favorited` and `adSpend`.
struct SearchController {
    let service: SearchService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("search", use: find)
    }

    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let query = try SearchQuery(SearchQuery.formValue("q", in: request.uri.query))
        let viewer = context.viewer.user
        let pageRequest = try PageRequest(request)
        let near = try QueryParameters(request).position()
        if near == nil, viewer == nil, let shared = try await service.sharedPage(query, page: pageRequest) {
            let (json, etag) = try shared.rendered()
            return CacheableJSON(body: ByteBuffer(bytes: json), etag: etag, shared: true)
        }
        let page = try await service.search(query, page: pageRequest, viewer: viewer, near: near)
        return try CacheableJSON(rendering: page, shared: viewer == nil)
    }
}
