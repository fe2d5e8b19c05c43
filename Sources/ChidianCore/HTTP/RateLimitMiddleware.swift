import Hummingbird
import PostgresNIO

/// Takes a token from the client's bucket for the limited routes (`RateLimits.kind`) before their work: over the
/// limit, 429 `rate_limited` with `Retry-After`. Runs after authentication, so a signed-in user is limited as
/// themself wherever they connect from, and an anonymous client by address.
///
/// A refusal is answered after `refusalPause`: a client that retries at once without reading `Retry-After` would
/// otherwise turn its connections into a flood of cheap 429s that takes the cores from everyone else (16 looping
/// connections made 3,500 refusals a second). The pause costs the server nothing but a suspended task.
package struct RateLimitMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    package let database: Database
    package let limits: RateLimits
    var refusalPause: Duration = .milliseconds(250)

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard limits.enabled, let kind = RateLimits.kind(request.method, request.uri.path[...]),
            let limit = limits.limits[kind]
        else { return try await next(request, context) }
        let client = context.viewer.user.map { "u:\($0.id)" } ?? "a:\(context.clientAddress ?? "unknown")"
        let take = TakeToken(key: "\(kind.rawValue)|\(client)", burst: limit.burst, perSecond: limit.perSecond)
        // A bucket is no cached read's: taking from it needs no cache fence (`WriteFenceMiddleware`).
        let wait = try await Database.$primaryUsed.withValue(nil) { try await database.run(take) }.first ?? 0
        guard wait == 0 else {
            try await Task.sleep(for: refusalPause)
            throw Problem.rateLimited(retryAfter: wait)
        }
        return try await next(request, context)
    }

    struct TakeToken: PostgresPreparedStatement {
        package static let name = "rate_token"
        package static let sql = "SELECT rate_token($1, $2, $3)"
        static let bindingDataTypes: [PostgresDataType] = [.text, .int4, .float8]

        package var key: String
        var burst: Int
        var perSecond: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(key)
            bindings.append(Int32(clamping: burst))
            bindings.append(perSecond)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int { try row.decode(Int.self) }
    }

    package init(database: Database, limits: RateLimits, refusalPause: Duration = .milliseconds(250)) {
        self.database = database
        self.limits = limits
        self.refusalPause = refusalPause
    }
}
