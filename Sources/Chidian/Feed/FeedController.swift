import Foundation
import HTTPTypes
import Hummingbird

/// The featured feed and the viewer's interests ("Feed and recommendations").
struct FeedController {
    let feed: FeedRepository
    let interests: InterestRepository
    let clock: @Sendable () -> Date

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("feed/featured", use: featured)
        group.get("me/interests", use: listInterests)
        group.delete("me/interests", use: resetInterests)
    }

    struct CategoryScore: Encodable, Sendable {
        var id: String
        var name: String
        var score: Double
    }

    struct Personalization: Encodable, Sendable {
        var categories: [CategoryScore]
    }

    struct FeedPage: Encodable, Sendable {
        var items: [CommentView]
        @Nullable var nextCursor: String?
        var personalization: Personalization
    }

    @Sendable func featured(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<FeedPage> {
        JSONResponse(try await featuredPage(viewer: context.viewer, page: try PageRequest(request)))
    }

    /// The viewer's featured page, for the API and the web client alike. A signed-in viewer's or a visitor's first
    /// page is two statements (their interests, then the page); anybody else's first page and every cursor page is
    /// one (the page, which on a cursor page also names the cursor's categories).
    func featuredPage(viewer: Viewer, page: PageRequest) async throws -> FeedPage {
        var ordering = FeedRepository.Ordering(categories: [])
        var names: [String: String] = [:]
        if page.cursor == nil, let key = viewer.interestKey {
            let current = try await interests.interests(viewer: key, at: clock()).prefix(
                FeedRepository.maxCategories)
            ordering.categories = current.map { (id: $0.categoryID, score: $0.score) }
            names = Dictionary(current.map { ($0.categoryID, $0.categoryName) }) { a, _ in a }
        }
        let result = try await feed.page(
            ordering: ordering, cursor: page.cursor, limit: page.limit, viewerID: viewer.user?.id)
        if page.cursor != nil { names = result.names }
        let personalization = Personalization(
            categories: result.ordering.categories.compactMap { entry in
                names[entry.id].map { CategoryScore(id: entry.id, name: $0, score: entry.score) }
            })
        return FeedPage(items: result.items, nextCursor: result.nextCursor, personalization: personalization)
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
        let list = try await interests.interests(viewer: viewer, at: clock())
        return JSONResponse(
            InterestList(
                items: list.map {
                    InterestItem(
                        category: .init(id: $0.categoryID, name: $0.categoryName), score: $0.score, clicks: $0.clicks)
                }))
    }

    @Sendable func resetInterests(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        guard let viewer = context.viewer.interestKey else { throw Problem.loginRequired }
        try await interests.reset(viewer: viewer)
        return .noContent
    }
}

extension FeedController.FeedPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
            json.key("nextCursor"); json.string(nextCursor)
            json.key("personalization")
            json.object { json in
                json.key("categories")
                json.array(personalization.categories) { json, category in
                    json.object { json in
                        json.key("id"); json.string(category.id)
                        json.key("name"); json.string(category.name)
                        json.key("score"); json.double(category.score)
                    }
                }
            }
        }
    }
}
