import Foundation
import OpenAPIRuntime

#if !os(Linux)
    import OpenAPIURLSession
#endif

/// The Chidian API for an app: the generated `Client` (every operation, typed) behind the calls the original
/// app's screens make. It keeps the session token (set by `register`/`login`, dropped by `logout`) and an
/// anonymous visitor id for the featured feed, sends `If-Match` with the version it read, follows cursors as
/// `Paginated` sequences and throws every refusal as a `ChidianError`.
///
/// The transport is URLSession on Apple platforms and AsyncHTTPClient (SwiftNIO) on Linux (`BufferedBodyTransport`).
public final class ChidianClient: Sendable {
    /// The generated client: every operation of the document (internal, see Models.swift).
    let api: Client
    let session: Session

    /// - Parameters:
    ///   - baseURL: the server, e.g. `https://api.example.com` (the document's paths start with `/v1`).
    ///   - visitorId: the anonymous visitor the featured feed learns from; keep it across launches (8–64 of
    ///     `[A-Za-z0-9_-]`). A new random one by default.
    ///   - transport: another transport (tests); the platform's default when nil.
    public init(baseURL: URL, visitorId: String? = nil, transport: (any ClientTransport)? = nil) {
        let session = Session(visitorId: visitorId ?? "v_" + UUID().uuidString.replacingOccurrences(of: "-", with: ""))
        self.session = session
        #if os(Linux)
            let transport = transport ?? BufferedBodyTransport()
        #else
            let transport = transport ?? URLSessionTransport()
        #endif
        api = Client(serverURL: baseURL, transport: transport, middlewares: [SessionMiddleware(session: session)])
    }

    /// The anonymous visitor id sent while signed out.
    public var visitorId: String { session.visitorId }

    /// Whether a session token is held.
    public var isSignedIn: Bool { get async { await session.token != nil } }
}

/// `If-Match` for a version read from a store or comment.
func ifMatch(_ version: Int) -> String { "\"\(version)\"" }
