import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Who the client speaks for: the session token once signed in, else the anonymous visitor id the featured feed
/// personalises for. An actor, so a login finishing while other requests run is seen by the next request.
actor Session {
    private(set) var token: String?
    let visitorId: String
    /// The primary's WAL position after this client's last write (`Chidian-LSN`), sent back on every request so
    /// a read served by a replica waits for it: the client reads its own writes.
    private(set) var lastWrite: String?

    init(visitorId: String) { self.visitorId = visitorId }

    func wrote(at position: String) { lastWrite = position }

    func signIn(_ token: String) { self.token = token }
    func signOut() { token = nil }
}

/// Adds `Authorization: Bearer` when signed in, else `X-Visitor-Id` (the server ignores a visitor id sent with a
/// token), and the last write's `Chidian-LSN`, to every request the generated client makes.
///
/// It also sends entity tags as written: the generated code percent-encodes every header parameter (RFC 6570, as
/// OpenAPI describes parameters; apple/swift-openapi-generator#529), so `If-Match: "3"` would leave as `%223%22`
/// and match no version. Our entity tags are digits or hex hashes in quotes, so decoding them back is exact.
struct SessionMiddleware: ClientMiddleware {
    static let visitorHeader = HTTPField.Name("X-Visitor-Id")!
    static let entityTagHeaders = [HTTPField.Name.ifMatch, .ifNoneMatch]
    static let positionHeader = HTTPField.Name("Chidian-LSN")!

    let session: Session

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in Self.entityTagHeaders {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        if let token = await session.token {
            request.headerFields[.authorization] = "Bearer \(token)"
        } else {
            request.headerFields[Self.visitorHeader] = session.visitorId
        }
        if let position = await session.lastWrite { request.headerFields[Self.positionHeader] = position }
        let (response, responseBody) = try await next(request, body, baseURL)
        if let position = response.headerFields[Self.positionHeader] { await session.wrote(at: position) }
        return (response, responseBody)
    }
}
