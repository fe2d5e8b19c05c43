import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Sign-in, registration and sign-out for browsers: the API's rules (`AccountsController.signIn` / `signUp`),
/// then the session token goes into an HttpOnly cookie instead of a response body.
struct WebAccountPages {
    let pages: WebPages
    let accounts: AccountService
    let sessions: SessionRepository

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("login", use: loginPage)
        group.post("login", use: login)
        group.get("register", use: registerPage)
        group.post("register", use: register)
        group.post("logout", use: logout)
    }

    @Sendable func loginPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        form("login", context: context, next: request.uri.queryParameters["next"].map(String.init))
    }

    @Sendable func registerPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        form("register", context: context, next: request.uri.queryParameters["next"].map(String.init))
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await WebForm.read(request, context: context)
        do {
            let session = try await accounts.signIn(
                name: fields["name"], password: fields["password"], address: context.clientAddress,
                visitor: AccountService.visitor(context.viewer))
            return signedIn(session, context: context, next: fields["next"])
        } catch let error as any DomainError {
            return form("login", context: context, next: fields["next"], name: fields["name"], error: error)
        }
    }

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        let fields = try await WebForm.read(request, context: context)
        do {
            let session = try await accounts.signUp(
                name: fields["name"], password: fields["password"], role: fields["role"] ?? "user",
                visitor: AccountService.visitor(context.viewer), origin: context.origin)
            return signedIn(session, context: context, next: fields["next"])
        } catch let error as any DomainError {
            return form("register", context: context, next: fields["next"], name: fields["name"], error: error)
        }
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        if let user = context.viewer.user { try await sessions.revoke(tokenHash: user.tokenHash) }
        var response = WebPages.redirect(to: "/")
        response.setCookie(
            WebSessionMiddleware.expired(WebSessionMiddleware.sessionCookie, secure: context.web?.secure ?? false))
        response.headers[.clearSiteData] = WebAccountPages.clearStorage
        return response
    }

    /// Sent when who uses the browser changes (sign-in, sign-out, a deleted account): the browser drops the
    /// service worker's pages (and the worker), so nobody reads the last person's pages offline. Cookies stay.
    static let clearStorage = "\"storage\""

    func signedIn(_ session: SessionView, context: AppRequestContext, next: String?) -> Response {
        var response = WebPages.redirect(to: WebController.localPath(next) ?? "/")
        response.setCookie(
            WebSessionMiddleware.cookie(
                WebSessionMiddleware.sessionCookie, session.token, maxAge: sessions.maxLifetimeSecondsInt,
                secure: context.web?.secure ?? false))
        response.headers[.clearSiteData] = Self.clearStorage
        return response
    }

    /// The form again with what went wrong in the original app's words (用户名不存在, 密码错误, …); the name typed
    /// is kept, the password never echoed.
    func form(
        _ template: String, context: AppRequestContext, next: String?, name: String? = nil,
        error: (any DomainError)? = nil
    ) -> Response {
        let language = context.web?.language ?? .zh
        var model: TemplateFields = ["name": name ?? "", "next": WebController.localPath(next) ?? ""]
        var status = HTTPResponse.Status.ok
        if let error {
            let problem = Problem(error)
            model["error"] = language.strings["error.\(problem.code)"] ?? problem.detail
            status = problem.status
        }
        return pages.render(template, title: language.text(template), model: model, context: context, status: status)
    }
}

extension HTTPField.Name {
    static let clearSiteData = Self("Clear-Site-Data")!
}

extension SessionRepository {
    var maxLifetimeSecondsInt: Int { Int(maxLifetime.components.seconds) }
}
