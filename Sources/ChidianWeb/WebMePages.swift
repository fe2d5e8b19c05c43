import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// 我的: the signed-in user's profile, name, password and avatar, favorites, reviews and interests, through the
/// same rules as `/v1/me…`. Interests can also be reset by an anonymous visitor, from the home page.
struct WebMePages {
    let pages: WebPages
    let accounts: AccountService
    let stores: StoreRepository
    let comments: CommentService
    let images: ImageService
    let signals: InterestSignals
    let clock: @Sendable () -> Date
    let myData: MyDataService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me", use: me)
        group.post("me/name", use: rename)
        group.post("me/password", use: changePassword)
        group.post("me/avatar", use: setAvatar)
        group.get("me/export", use: exportData)
        group.post("me/delete", use: deleteAccount)
        group.post("interests/reset", use: resetInterests)
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> Response {
        let saved = request.uri.queryParameters["saved"].map(String.init)
        return try await page(context: context, saved: saved)
    }

    @Sendable func rename(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        return try await saving("name", context: context) { _ = try await accounts.rename(user, to: form["name"]) }
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        return try await saving("password", context: context) {
            try await accounts.changePassword(
                user, current: form["currentPassword"], new: form["newPassword"], address: context.clientAddress)
        }
    }

    @Sendable func setAvatar(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(
            request, context: context, maxBytes: ImageFormat.maxBytes + WebForm.maxBytes)
        let user = try context.requireUser()
        return try await saving("avatar", context: context) {
            guard let photo = form.photos.first else {
                throw Problem.badRequest("invalid_image", "Choose a picture first.")
            }
            let image = try await images.store(photo, user: user)
            _ = try await accounts.users.setAvatar(id: user.id, imageID: image.id)
        }
    }

    @Sendable func exportData(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await myData.archive(for: try context.requireUser())
    }

    /// 注销账号: the password and a ticked confirmation, then signed out to the home page with a message.
    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        do {
            guard form["confirm"] == "yes" else {
                throw Problem.badRequest("confirm_required", "Tick the confirmation first.")
            }
            try await myData.delete(user, password: form["password"], address: context.clientAddress)
        } catch {
            guard let problem = WebPages.refusal(error) else { throw error }
            return try await page(context: context, failed: ("delete", problem))
        }
        var response = WebPages.redirect(to: "/?deleted=1")
        response.setCookie(
            WebSessionMiddleware.expired(WebSessionMiddleware.sessionCookie, secure: context.web?.secure ?? false))
        response.headers[.clearSiteData] = WebAccountPages.clearStorage
        return response
    }

    @Sendable func resetInterests(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        guard let key = context.viewer.interestKey else { throw Problem.loginRequired }
        try await signals.reset(viewer: key, at: clock())
        return WebPages.redirect(to: WebController.localPath(form["back"]) ?? "/")
    }

    /// Runs a change; on success back to the page (303), on a refusal of the rules the page again with the
    /// message beside the form it concerns.
    func saving(_ what: String, context: AppRequestContext, _ change: () async throws -> Void) async throws
        -> Response
    {
        do {
            try await change()
            return WebPages.redirect(to: "/me?saved=\(what)")
        } catch {
            guard let problem = WebPages.refusal(error) else { throw error }
            return try await page(context: context, failed: (what, problem))
        }
    }

    func page(context: AppRequestContext, saved: String? = nil, failed: (form: String, problem: Problem)? = nil)
        async throws -> Response
    {
        let language = context.web?.language ?? .zh
        let user = try context.requireUser()
        guard let view = try await accounts.users.view(id: user.id) else { throw Problem.invalidToken }
        async let favorites = stores.favorites(of: user.id, page: PageRequest(limit: 20), viewer: user)
        async let written = comments.comments.userComments(userID: user.id, page: PageRequest(limit: 20))
        let current = try await signals.interests.interests(viewer: "u:\(user.id)", at: clock())
        let mine = try await comments.likes.mark(written.items, viewerID: user.id)
        var model: TemplateFields = [
            "profile": ProfileModel(view, language: language),
            "favorites": try await favorites.items.map { StoreCardModel($0, language: language) },
            "hasFavorites": try await !favorites.items.isEmpty,
            "comments": mine.map { CommentCardModel($0, viewer: context.viewer, language: language) },
            "hasComments": !mine.isEmpty,
            "interests": current.map {
                ["name": $0.categoryName, "score": Formatting.oneDecimal($0.score), "clicks": $0.clicks]
                    as TemplateFields
            },
            "hasInterests": !current.isEmpty,
            "back": "/me",
        ]
        if let saved { model["saved_\(saved)"] = true }
        var status = HTTPResponse.Status.ok
        if let failed {
            model["error_\(failed.form)"] = language.strings["error.\(failed.problem.code)"] ?? failed.problem.detail
            status = failed.problem.status
        }
        return pages.render("me", title: language.text("me"), model: model, context: context, status: status)
    }
}
