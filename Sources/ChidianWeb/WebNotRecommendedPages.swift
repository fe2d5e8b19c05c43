import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// `/stores/{id}/not-recommended`: the store's reviews judged not recommended (issue #48), newest first, as
/// `GET /v1/stores/{id}/comments?recommended=false` lists them. The store page links here while it has any.
struct WebNotRecommendedPages {
    let pages: WebPages
    let stores: StoreRepository
    let comments: CommentService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/not-recommended", use: page)
    }

    /// The store page's link, or nil while every review is recommended.
    static func link(_ view: StoreView, language: Language) -> TemplateFields? {
        guard view.notRecommendedCount > 0 else { return nil }
        return [
            "href": "/stores/\(WebController.escapePath(view.id))/not-recommended",
            "label": language.text("notRecommendedLink").replacingOccurrences(
                of: "{count}", with: String(view.notRecommendedCount)),
        ]
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let id = try context.parameters.require("id")
        let view = try await stores.requireView(id: id, viewer: context.viewer.user)
        let list = try await comments.comments.storeCommentViews(
            storeID: id, kind: nil, sort: .newest, page: try PageRequest(request), recommended: false)
        let items = try await comments.likes.mark(list.items, viewerID: context.viewer.user?.id)
        let store = "/stores/\(WebController.escapePath(id))"
        let path = store + "/not-recommended"
        let model: TemplateFields = [
            "storeHref": store, "storeName": view.name,
            "comments": items.map { CommentCardModel($0, viewer: context.viewer, language: language) },
            "hasComments": !items.isEmpty,
            "next": list.nextCursor.map { "\(path)?cursor=\(WebController.escapeQuery($0))" },
            "back": path,
        ]
        let title = "\(language.text("notRecommendedTitle")) · \(view.name)"
        return pages.render("notRecommended", title: title, model: model, context: context)
    }
}
