import Hummingbird

/// Marks every request but a coupon claim (`POST /v1/coupons/{id}/claims`, the web's `POST /coupons/{id}/claim`)
/// as foreground traffic, which claims make way for while it lasts.
package struct ForegroundTrafficMiddleware<Context: RequestContext>: RouterMiddleware {
    package let traffic: ForegroundTraffic

    package init(traffic: ForegroundTraffic) {
        self.traffic = traffic
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if !Self.isClaim(request.method, request.uri.path) { traffic.mark() }
        return try await next(request, context)
    }

    static func isClaim(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        guard method == .post else { return false }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.count {
        case 4: return parts[0] == "v1" && parts[1] == "coupons" && parts[3] == "claims"
        case 3: return parts[0] == "coupons" && parts[2] == "claim"
        default: return false
        }
    }
}
