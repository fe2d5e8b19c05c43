import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Puts the viewer into the context: a bearer token's user (401 `invalid_token` when it is not live),
/// else an `X-Visitor-Id` visitor (400 `invalid_visitor_id` when malformed), else nobody.
package struct AuthMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    let sessions: SessionRepository

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        var context = context
        if let visitor = request.headers[.xVisitorID], Viewer.isValidVisitorID(visitor) { context.device = visitor }
        if let header = request.headers[.authorization] {
            guard let token = Self.bearerToken(header), let user = try await sessions.authenticate(token: token) else {
                throw Problem.invalidToken
            }
            context.viewer = .user(user)
        } else if let visitor = request.headers[.xVisitorID] {
            guard Viewer.isValidVisitorID(visitor) else {
                throw Problem.badRequest("invalid_visitor_id", "X-Visitor-Id must be 8–64 of A–Z, a–z, 0–9, _ and -.")
            }
            context.viewer = .visitor(visitor)
        }
        return try await next(request, context)
    }

    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // Trimmed without Foundation's character sets: this runs on every signed-in request.
        var token = parts[1].drop { $0.isWhitespace }
        while token.last?.isWhitespace == true { token = token.dropLast() }
        return token.isEmpty || token.utf8.count > 512 ? nil : String(token)
    }

    package init(sessions: SessionRepository) {
        self.sessions = sessions
    }
}
