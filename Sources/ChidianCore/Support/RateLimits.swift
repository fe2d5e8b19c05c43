import HTTPTypes

/// Per-client limits on what a client could flood: token buckets in PostgreSQL (`rate_token`, shared by every
/// server process). The client is the signed-in user, else the address (`TRUSTED_PROXIES` decides whether
/// `X-Forwarded-For` names it). `RATE_LIMITS=off` switches them off; the sign-in throttle is separate and stays.
public struct RateLimits: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case search, register, login, password, upload, post, like, report, export

        /// The environment variable that sets this limit: `RATE_LIMIT_SEARCH=60:20` (60 a minute, bursts of 20).
        public var variable: String { "RATE_LIMIT_" + rawValue.uppercased() }
    }

    /// `perMinute` tokens a minute refill a bucket of `burst`.
    public struct Limit: Sendable, Equatable, CustomStringConvertible {
        /// Tokens added a second: how `rate_token` takes the rate.
        public var perSecond: Double
        public var burst: Int

        public init(perMinute: Int, burst: Int) {
            self.init(perSecond: Double(perMinute) / 60, burst: burst)
        }

        /// Any rate, slower ones included: a test's bucket that refills once an hour stays empty for longer than
        /// the suite's watchdog lets any test run, so what it refuses never depends on the machine's speed.
        public init(perSecond: Double, burst: Int) {
            self.perSecond = perSecond
            self.burst = burst
        }

        public var perMinute: Int { Int((perSecond * 60).rounded()) }

        public var description: String { "\(perMinute) a minute, bursts of \(burst)" }
    }

    public var enabled = true
    public var limits: [Kind: Limit] = Self.defaults
    /// Uploads one user may make in a day (a fixed window), besides the upload rate.
    public var uploadsPerDay = 200

    public init() {}

    /// Generous for people, tight for scripts: a person searches a few times a minute and posts a few reviews an hour.
    public static let defaults: [Kind: Limit] = [
        .search: .init(perMinute: 60, burst: 20),
        .register: .init(perMinute: 2, burst: 5),
        .login: .init(perMinute: 10, burst: 10),
        .password: .init(perMinute: 2, burst: 5),
        .upload: .init(perMinute: 20, burst: 10),
        .post: .init(perMinute: 6, burst: 5),
        .like: .init(perMinute: 60, burst: 30),
        .report: .init(perMinute: 2, burst: 5),
        // An export reads everything the user has; a person wants one now and then.
        .export: .init(perMinute: 1, burst: 3),
    ]

    /// The limit a request falls under, by method and path (`/v1/...`), or nil.
    public static func kind(_ method: HTTPRequest.Method, _ path: Substring) -> Kind? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.first == "v1" else { return webKind(method, parts) }
        switch (method, Array(parts.dropFirst())) {
        case (.get, ["search"]): return .search
        case (.post, ["auth", "register"]): return .register
        case (.post, ["auth", "login"]): return .login
        case (.put, ["me", "password"]), (.delete, ["me"]): return .password
        case (.get, ["me", "export"]): return .export
        case (.post, ["images"]): return .upload
        case (.post, let p) where p.count == 3 && p[0] == "stores" && p[2] == "comments": return .post
        case (.post, let p) where p.count == 3 && p[0] == "comments" && p[2] == "reply": return .post
        case (.post, let p) where p.count == 3 && p[0] == "comments" && p[2] == "report": return .report
        case (.put, let p) where p.count == 3 && p[0] == "comments" && p[2] == "reply": return .post
        case (.put, let p), (.delete, let p):
            return p.count == 3 && p[0] == "comments" && p[2] == "like" ? .like : nil
        case (.post, let p) where p.count == 3 && p[0] == "comments" && p[2] == "reports": return .report
        default: return nil
        }
    }

    /// The web client's forms draw on the same buckets as the API routes they stand for.
    static func webKind(_ method: HTTPRequest.Method, _ parts: [Substring]) -> Kind? {
        switch (method, parts) {
        case (.get, ["search"]): return .search
        case (.post, ["register"]): return .register
        case (.post, ["login"]): return .login
        case (.post, ["me", "password"]), (.post, ["me", "delete"]): return .password
        case (.get, ["me", "export"]): return .export
        case (.post, ["me", "avatar"]): return .upload
        case (.post, let p) where p.count == 3 && p[0] == "stores" && p[2] == "comments": return .post
        case (.post, let p) where p.count == 3 && p[0] == "comments" && p[2] == "reply": return .post
        case (.post, let p) where p.count == 3 && p[0] == "comments" && p[2] == "report": return .report
        case (.post, let p) where p.count == 3 && p[0] == "comments" && (p[2] == "like" || p[2] == "unlike"):
            return .like
        default: return nil
        }
    }

    /// Parses `PER_MINUTE[:BURST]`; nil when malformed.
    package static func parse(_ text: String, keepingBurst burst: Int) -> Limit? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let perMinute = Int(parts[0]), (1...1_000_000).contains(perMinute) else {
            return nil
        }
        guard parts.count == 2 else { return Limit(perMinute: perMinute, burst: burst) }
        guard let burst = Int(parts[1]), (1...1_000_000).contains(burst) else { return nil }
        return Limit(perMinute: perMinute, burst: burst)
    }
}
