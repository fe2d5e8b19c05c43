import ChidianCore
import HTTPTypes
import OpenAPIKit

/// One documented route: what it takes, what it answers, and every problem `code` it can answer with.
/// The OpenAPI document is generated from a list of these, and a test compares the list with the router.
public struct APIOperation: Sendable {
    /// Who may call it, which also decides the problems every caller can meet.
    public enum Access: Sendable {
        /// Outside `/v1`: no authentication middleware runs.
        case operations
        /// Anyone; a token or visitor id is read (and refused when malformed) but not needed.
        case anyone
        /// A signed-in user, or an anonymous visitor named by `X-Visitor-Id`.
        case viewer
        /// A signed-in user (401 `login_required` without a token).
        case signedIn
    }

    public enum Body: Sendable {
        /// A JSON object of the named component schema.
        case json(String)
        /// Raw image bytes or a multipart form with a `file` field.
        case image
    }

    /// A successful answer.
    public struct Success: Sendable {
        public var status: Int
        public var description: String
        /// A component schema name; nil for an empty body.
        public var schema: String?
        /// Response headers always sent with this answer.
        public var headers: [String]

        public init(_ status: Int, _ description: String, schema: String? = nil, headers: [String] = []) {
            self.status = status
            self.description = description
            self.schema = schema
            self.headers = headers
        }
    }

    public var method: String
    public var path: String
    public var operationId: String
    public var tag: String
    public var summary: String
    public var description: String
    public var access: Access
    public var parameters: [OpenAPI.Parameter]
    public var body: Body?
    public var successes: [Success]
    /// Problem codes by status, besides the ones `access`, `body`, `paged` and `ifMatch` imply.
    public var problems: [Int: [String]]
    /// `?limit=` and `?cursor=`.
    public var paged: Bool
    /// Honours `If-Match` (412 `version_conflict`).
    public var ifMatch: Bool

    public init(
        _ method: String, _ path: String, id: String, tag: String, summary: String, description: String = "",
        access: Access, parameters: [OpenAPI.Parameter] = [], body: Body? = nil, successes: [Success],
        problems: [Int: [String]] = [:], paged: Bool = false, ifMatch: Bool = false
    ) {
        self.method = method
        self.path = path
        self.operationId = id
        self.tag = tag
        self.summary = summary
        self.description = description
        self.access = access
        self.parameters = parameters
        self.body = body
        self.successes = successes
        self.problems = problems
        self.paged = paged
        self.ifMatch = ifMatch
    }

    /// The per-client rate limit this route falls under, if any (429 `rate_limited`).
    public var rateLimit: RateLimits.Kind? {
        HTTPRequest.Method(rawValue: method.uppercased()).flatMap { RateLimits.kind($0, path[...]) }
    }

    /// Every problem code this operation can answer, by status, the implied ones included.
    public var allProblems: [Int: [String]] {
        var all = problems
        func add(_ status: Int, _ codes: String...) {
            for code in codes where !(all[status] ?? []).contains(code) { all[status, default: []].append(code) }
        }
        if access != .operations {
            // The authentication middleware runs before every /v1 route.
            add(400, "invalid_visitor_id")
            add(401, "invalid_token")
            add(503, "database_unavailable", "query_timeout")
        }
        if access == .signedIn { add(401, "login_required") }
        if case .json = body {
            add(400, "invalid_body")
            add(413, "body_too_large")
        }
        if paged { add(400, "invalid_limit", "invalid_cursor") }
        if rateLimit != nil { add(429, "rate_limited") }
        if ifMatch { add(412, "version_conflict") }
        return all
    }
}
