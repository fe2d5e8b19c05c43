import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// The featured feed and the viewer's interests ("Feed and recommendations").
struct FeedController {
    let service: FeedService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("feed/featured", use: featured)
        group.get("me/interests", use: listInterests)
        group.delete("me/interests", use: resetInterests)
    }

    @Sendable func featured(_ request: Request, context: AppRequestContext) async throws -> Response {
        let near = try QueryParameters(request).position()
        var generator = SeededRandom.forRequest()
        let page = try await service.featuredPage(
            viewer: context.viewer, page: try PageRequest(request), near: near, using: &generator)
        // Exploration and cold start sample: a page is this viewer's, this time.
        return try JSONResponse(page, headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
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
        let list = try await service.interests.interests(viewer: viewer, at: service.clock())
        return JSONResponse(
            InterestList(
                items: list.map {
                    InterestItem(
                        category: .init(id: $0.categoryID, name: $0.categoryName), score: $0.score, clicks: $0.clicks)
                }))
    }

    @Sendable func resetInterests(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        guard let viewer = context.viewer.interestKey else { throw Problem.loginRequired }
        try await service.signals.reset(viewer: viewer, at: service.clock())
        return .noContent
    }
}
