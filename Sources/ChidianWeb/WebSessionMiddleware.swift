import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Browsers sign in with a cookie holding the same session token the API takes as a bearer token; anonymous
/// browsers get a visitor id cookie so the feed learns before sign-up; every browser gets a CSRF token cookie
/// that state-changing forms and scripts must echo (double submit, checked by `WebForm`).
package struct WebSessionMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    static let sessionCookie = WebState.sessionCookie
    static let visitorCookie = "chidian_visitor"
    static let csrfCookie = "chidian_csrf"
    static let year = 365 * 86400

    let sessions: SessionRepository

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        var context = context
        var cookies: [Cookie] = []
        let secure = Self.isSecure(request)
        let jar = request.cookies
        if let token = jar[Self.sessionCookie]?.value {
            if let user = try await sessions.authenticate(token: token) {
                context.viewer = .user(user)
            } else {
                cookies.append(Self.expired(Self.sessionCookie, secure: secure))
            }
        }
        if let visitor = jar[Self.visitorCookie]?.value, Viewer.isValidVisitorID(visitor) { context.device = visitor }
        if context.viewer == .nobody {
            if let visitor = context.device {
                context.viewer = .visitor(visitor)
            } else {
                let visitor = Tokens.generate()
                context.viewer = .visitor(visitor)
                context.device = visitor
                context.newVisitor = true
                cookies.append(Self.cookie(Self.visitorCookie, visitor, maxAge: Self.year, secure: secure))
            }
        }
        var csrf = jar[Self.csrfCookie]?.value ?? ""
        if !Self.isToken(csrf) {
            csrf = Tokens.generate()
            cookies.append(Self.cookie(Self.csrfCookie, csrf, maxAge: Self.year, secure: secure))
        }
        context.web = WebState(
            language: Language(acceptLanguage: request.headers[.acceptLanguage]), csrfToken: csrf, secure: secure)
        var response = try await next(request, context)
        for cookie in cookies { response.setCookie(cookie) }
        // The viewer's own pages: no cache keeps them, the service worker's included (it skips no-store).
        if Self.isPersonal(request.uri.path) { response.headers[.cacheControl] = "private, no-store" }
        return response
    }

    static func isPersonal(_ path: String) -> Bool {
        ["/me", "/manage", "/admin"].contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// TLS ends at the proxy in front of us, which says so; a client lying about it only makes its own cookies
    /// `Secure`.
    static func isSecure(_ request: Request) -> Bool {
        request.headers[.xForwardedProto]?.lowercased() == "https" || request.head.scheme == "https"
    }

    static func isToken(_ value: String) -> Bool {
        value.utf8.count == 43 && Viewer.isValidVisitorID(String(value.prefix(43)))
    }

    static func cookie(_ name: String, _ value: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func expired(_ name: String, secure: Bool) -> Cookie {
        cookie(name, "", maxAge: 0, secure: secure)
    }

    package init(sessions: SessionRepository) {
        self.sessions = sessions
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xCSRFToken = Self("X-CSRF-Token")!
}
