import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// The featured feed and the viewer's interests ("Feed and recommendations").
package struct FeedController {
    package let service: FeedService

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("feed/featured", use: featured)
        group.get("me/interests", use: listInterests)
        group.delete("me/interests", use: resetInterests)
    }

    @Sendable package func featured(_ request: Request, context: AppRequestContext) async throws -> Response {
        let near = try NearQuery.parse(request.uri.queryParameters)
        var generator = SeededRandom.forRequest()
        let page = try await service.featuredPage(
            viewer: context.viewer, page: try PageRequest(request), near: near, using: &generator)
        // Exploration and cold start sample: a page is this viewer's, this time.
        return try JSONResponse(page, headers: [.cacheControl: "private, no-store"])
            .response(from: request, context: context)
    }

    package struct InterestItem: Encodable, Sendable {
        package struct Category: Encodable, Sendable {
            package var id: String
            package var name: String
        }
        package var category: Category
        package var score: Double
        package var clicks: Int
    }

    package struct InterestList: Encodable, Sendable {
        package var items: [InterestItem]
    }

    @Sendable package func listInterests(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
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

    @Sendable package func resetInterests(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        guard let viewer = context.viewer.interestKey else { throw Problem.loginRequired }
        try await service.interests.reset(viewer: viewer)
        return .noContent
    }
}
