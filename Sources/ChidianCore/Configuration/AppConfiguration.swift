import Foundation
import Logging
import NIOCore

/// Everything the server and the CLI read from the environment, with defaults; bad values are named at start-up.
public struct AppConfiguration: Sendable {
    public var databaseURL: String
    public var host: String
    public var port: Int
    public var logLevel: Logger.Level
    /// bcrypt cost for new password hashes (12 in production; tests use 4).
    public var bcryptCost: Int
    public var poolSize: Int
    /// How long a request may wait for the database before it is answered 503.
    public var databaseTimeout: Duration
    /// How long a session may sit idle inside a transaction before PostgreSQL ends it (a client that vanished
    /// mid-transaction must not keep its row locks). Tests on a starved machine give their own client longer.
    public var idleInTransactionTimeout: Duration = .seconds(5)
    /// How many of the featured feed's first ten places may go to a category by its sampled click-through rather than
    /// the viewer's best estimate (0 turns exploring off).
    public var feedExplorePlaces = FeedPlanner.explorePlaces
    /// Half-life of click interest, in seconds.
    public var interestHalfLife: Double
    public var sessionLifetime: Duration
    /// How long a session lives after sign-in however often it is used.
    public var sessionMaxLifetime: Duration
    /// Files served under `/static/` (nil: none). The benchmark serves a plain file this way beside the same bytes
    /// as an image, to measure what keeping images in PostgreSQL costs.
    public var staticDirectory: String?
    /// A connection that sends nothing for this long (a stalled half-sent request, an idle keep-alive) is closed.
    public var idleTimeout: Duration
    /// Every statement a request runs is cancelled by PostgreSQL after this long (503 `query_timeout`); the CLI's
    /// long work (seed, export) runs without it.
    public var statementTimeout: Duration
    /// The lower deadline of `GET` and `HEAD` requests' statements (`READ_STATEMENT_TIMEOUT_MS`).
    public var readStatementTimeout: Duration = .seconds(1)
    /// Password hashes one server runs or queues at once; beyond, 503 `busy` (default: 8 per core).
    public var bcryptQueue: Int
    /// Streaming replicas for reads that tolerate a little staleness (`DATABASE_READ_URLS`, comma-separated).
    public var readDatabaseURLs: [String] = []
    /// A replica further behind than this is skipped.
    public var replicaMaxLag: Duration = .seconds(5)
    /// Per-client rate limits (`RATE_LIMITS`, `RATE_LIMIT_<KIND>`, `UPLOADS_PER_DAY`).
    public var rateLimits = RateLimits()
    /// Proxies whose `X-Forwarded-For` names the client (`TRUSTED_PROXIES`).
    public var trustedProxies = TrustedProxies.none
    /// How often `serve` runs housekeeping (`HOUSEKEEPING_INTERVAL_SECONDS`).
    public var housekeepingInterval: Duration = .seconds(3600)
    /// How long SIGTERM lets in-flight work finish before `serve` cancels what is left (`SHUTDOWN_GRACE_SECONDS`).
    public var shutdownGrace: Duration = .seconds(30)
    /// Judging reviews recommended or not (`TRUST`, on by default; `off` judges every review recommended, for
    /// closed betas and for tests that are not about trust). Issue #48.
    public var trustEnabled = true
    /// Counting views, visitors, impressions and clicks for insights (`INSIGHTS`, on by default).
    public var insightsEnabled = true
    /// How often each server writes its counts (`INSIGHTS_FLUSH_SECONDS`): what a crash may lose at most.
    public var insightsFlushInterval: Duration = .seconds(5)
    /// How often each server writes what requests taught the recommender (`SIGNALS_FLUSH_SECONDS`): how long a
    /// viewer's own interests may lag (the contract allows 5 s) and the most a crash can lose.
    public var signalsFlushInterval: Duration = .seconds(1)

    /// The rows a search page may read counting a text in reviews (`SEARCH_ROW_BUDGET`); beyond it the page is
    /// approximate.
    public var searchRowBudget = AppConfiguration.defaultSearchRowBudget
    public static let defaultSearchRowBudget = 8_000
    /// Searches that count reviews running at once per server (`SEARCH_CONCURRENCY`); up to 64 more wait up to
    /// 1 s, then 503 `busy`.
    public var searchConcurrency = 1
    /// Claims running at once per server while other requests come (`CLAIM_CONCURRENCY`); each slot then rests
    /// `CLAIM_REST` times as long as its claim took, so a rush gets at most `concurrency / (1 + rest)` of the
    /// server's time beside pages; with nothing else asked, claims run at once (docs/COUPONS.md).
    public var claimConcurrency = 1
    public var claimRest = 5
    /// The read cache and the session cache (`CACHE`, on by default; `off` reads PostgreSQL every time).
    public var cacheEnabled = true
    /// The read cache's cap in bytes (`CACHE_MAX_MB`); search hits get half of it and sessions a sixteenth besides.
    public var cacheBytes = 30 << 20
    /// How recently the cache listener must have heard its heartbeat for the read cache to serve (the staleness
    /// bound, docs/CACHING.md). Not an environment setting: tests that fence every write lengthen it, so a loaded
    /// machine's late heartbeat cannot turn the cache off under them.
    public var cacheFreshness: Duration = .milliseconds(900)
    /// Notification streams one user may hold open on one server (`STREAMS_PER_USER`), and streams one server
    /// holds in all (`STREAMS_MAX`); past them 429 `too_many_streams` / 503 `server_busy`.
    public var streamsPerUser = 5
    public var streamsMax = 20_000
    /// How often an idle notification stream writes a heartbeat comment (`STREAM_HEARTBEAT_SECONDS`).
    public var streamHeartbeat: Duration = .seconds(15)
    /// Follows one user may make in a day (`FOLLOWS_PER_DAY`).
    public var followsPerDay = 10_000

    public static let defaultDatabaseURL = "postgres://postgres@127.0.0.1:54329/chidian"

    public init(
        databaseURL: String = AppConfiguration.defaultDatabaseURL,
        host: String = "127.0.0.1",
        port: Int = 8080,
        logLevel: Logger.Level = .info,
        bcryptCost: Int = 12,
        poolSize: Int = 16,
        databaseTimeout: Duration = .seconds(3),
        interestHalfLife: Double = 2 * 86400,
        sessionLifetime: Duration = .seconds(30 * 86400),
        sessionMaxLifetime: Duration = .seconds(90 * 86400),
        staticDirectory: String? = nil,
        idleTimeout: Duration = .seconds(30),
        statementTimeout: Duration = .seconds(2),
        bcryptQueue: Int = System.coreCount * 8
    ) {
        self.databaseURL = databaseURL
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.bcryptCost = bcryptCost
        self.poolSize = poolSize
        self.databaseTimeout = databaseTimeout
        self.interestHalfLife = interestHalfLife
        self.sessionLifetime = sessionLifetime
        self.sessionMaxLifetime = sessionMaxLifetime
        self.staticDirectory = staticDirectory
        self.idleTimeout = idleTimeout
        self.statementTimeout = statementTimeout
        self.bcryptQueue = bcryptQueue
    }

    /// Reads the environment; throws naming every bad variable at once.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> AppConfiguration
    {
        var config = AppConfiguration()
        if let local = LocalCluster.databaseURL() { config.databaseURL = local }
        var problems: [String] = []
        func integer(_ name: String, _ range: ClosedRange<Int>, _ apply: (Int) -> Void) {
            guard let raw = environment[name], !raw.isEmpty else { return }
            if let value = Int(raw), range.contains(value) {
                apply(value)
            } else {
                problems.append("\(name)=\(raw) is not an integer in \(range.lowerBound)...\(range.upperBound)")
            }
        }
        if let url = environment["DATABASE_URL"], !url.isEmpty {
            if (try? DatabaseURL(url)) == nil { problems.append("DATABASE_URL is not a postgres:// URL") }
            config.databaseURL = url
        }
        if let host = environment["HOST"], !host.isEmpty { config.host = host }
        integer("PORT", 1...65535) { config.port = $0 }
        if let level = environment["LOG_LEVEL"], !level.isEmpty {
            if let parsed = Logger.Level(rawValue: level.lowercased()) {
                config.logLevel = parsed
            } else {
                problems.append("LOG_LEVEL=\(level) is not one of trace, debug, info, notice, warning, error, critical")
            }
        }
        integer("BCRYPT_COST", 4...31) { config.bcryptCost = $0 }
        integer("DB_POOL_SIZE", 1...200) { config.poolSize = $0 }
        integer("DB_TIMEOUT_MS", 100...120_000) { config.databaseTimeout = .milliseconds($0) }
        integer("DB_IDLE_IN_TRANSACTION_MS", 1000...600_000) { config.idleInTransactionTimeout = .milliseconds($0) }
        integer("FEED_EXPLORE_PLACES", 0...FeedPlanner.maxExplorePlaces) { config.feedExplorePlaces = $0 }
        integer("INTEREST_HALF_LIFE_HOURS", 1...(24 * 365 * 10)) { config.interestHalfLife = Double($0) * 3600 }
        integer("SESSION_DAYS", 1...3650) { config.sessionLifetime = .seconds($0 * 86400) }
        integer("SESSION_MAX_DAYS", 1...3650) { config.sessionMaxLifetime = .seconds($0 * 86400) }
        if let dir = environment["STATIC_DIR"], !dir.isEmpty { config.staticDirectory = dir }
        integer("IDLE_TIMEOUT_SECONDS", 1...3600) { config.idleTimeout = .seconds($0) }
        integer("STATEMENT_TIMEOUT_MS", 10...600_000) { config.statementTimeout = .milliseconds($0) }
        integer("READ_STATEMENT_TIMEOUT_MS", 10...600_000) { config.readStatementTimeout = .milliseconds($0) }
        integer("SEARCH_CONCURRENCY", 1...256) { config.searchConcurrency = $0 }
        integer("CLAIM_CONCURRENCY", 1...256) { config.claimConcurrency = $0 }
        integer("CLAIM_REST", 0...100) { config.claimRest = $0 }
        integer("SEARCH_ROW_BUDGET", 100...100_000_000) { config.searchRowBudget = $0 }
        integer("BCRYPT_QUEUE", 1...100_000) { config.bcryptQueue = $0 }
        if let urls = environment["DATABASE_READ_URLS"], !urls.isEmpty {
            config.readDatabaseURLs = urls.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if config.readDatabaseURLs.contains(where: { (try? DatabaseURL($0)) == nil }) {
                problems.append("DATABASE_READ_URLS is not a comma-separated list of postgres:// URLs")
            }
        }
        switch environment["CACHE"]?.lowercased() {
        case nil, "", "on": break
        case "off": config.cacheEnabled = false
        case let other?: problems.append("CACHE=\(other) is not on or off")
        }
        integer("CACHE_MAX_MB", 1...16_384) { config.cacheBytes = $0 << 20 }
        integer("REPLICA_MAX_LAG_MS", 100...3_600_000) { config.replicaMaxLag = .milliseconds($0) }
        switch environment["RATE_LIMITS"]?.lowercased() {
        case nil, "", "on": break
        case "off": config.rateLimits.enabled = false
        case let other?: problems.append("RATE_LIMITS=\(other) is not on or off")
        }
        for kind in RateLimits.Kind.allCases {
            guard let raw = environment[kind.variable], !raw.isEmpty else { continue }
            if let limit = RateLimits.parse(raw, keepingBurst: config.rateLimits.limits[kind]?.burst ?? 1) {
                config.rateLimits.limits[kind] = limit
            } else {
                problems.append("\(kind.variable)=\(raw) is not PER_MINUTE or PER_MINUTE:BURST")
            }
        }
        integer("UPLOADS_PER_DAY", 1...1_000_000) { config.rateLimits.uploadsPerDay = $0 }
        integer("HOUSEKEEPING_INTERVAL_SECONDS", 1...604_800) { config.housekeepingInterval = .seconds($0) }
        integer("SHUTDOWN_GRACE_SECONDS", 1...3600) { config.shutdownGrace = .seconds($0) }
        switch environment["INSIGHTS"]?.lowercased() {
        case nil, "", "on": break
        case "off": config.insightsEnabled = false
        case let other?: problems.append("INSIGHTS=\(other) is not on or off")
        }
        switch environment["TRUST"]?.lowercased() {
        case nil, "", "on": break
        case "off": config.trustEnabled = false
        case let other?: problems.append("TRUST=\(other) is not on or off")
        }
        integer("INSIGHTS_FLUSH_SECONDS", 1...10) { config.insightsFlushInterval = .seconds($0) }
        integer("SIGNALS_FLUSH_SECONDS", 1...2) { config.signalsFlushInterval = .seconds($0) }
        integer("STREAMS_PER_USER", 1...100_000) { config.streamsPerUser = $0 }
        integer("STREAMS_MAX", 1...1_000_000) { config.streamsMax = $0 }
        integer("STREAM_HEARTBEAT_SECONDS", 1...300) { config.streamHeartbeat = .seconds($0) }
        integer("FOLLOWS_PER_DAY", 1...1_000_000) { config.followsPerDay = $0 }
        // Read again by `ServerClock.current`; checked here so a bad setting stops the server instead of being ignored.
        if case .failure(let error) = ServerClock.parse(environment) { problems.append(error.message) }
        if let raw = environment["TRUSTED_PROXIES"], !raw.isEmpty {
            if let proxies = TrustedProxies(raw) {
                config.trustedProxies = proxies
            } else {
                problems.append("TRUSTED_PROXIES is not a comma-separated list of addresses and CIDR blocks")
            }
        }
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
        return config
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String { "bad configuration: " + problems.joined(separator: "; ") }
}
