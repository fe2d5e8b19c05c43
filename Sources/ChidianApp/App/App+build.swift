import ChidianAPI
import ChidianCore
import ChidianWeb
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// What every controller may need; built once per application (and per test).
public struct AppServices: Sendable {
    public let config: AppConfiguration
    public let database: Database
    public let logger: Logger
    public let loginThrottle: LoginThrottle
    /// This server's share of password hashing (a bounded queue on bcrypt's threads).
    public let bcrypt: BcryptPool
    /// The server's time (`ServerClock`: the wall clock unless `CLOCK_START` set it); tests inject a fixed clock.
    public let clock: @Sendable () -> Date
    /// The read and session caches with their listener; nil with `CACHE=off`.
    public let caching: Caching?
    /// This server's insight counts, written by `InsightFlusher`.
    public let insights: InsightCounter
    /// What requests teach the recommender, waiting for `SignalFlusher` (issue #44): recorded in memory.
    public let signals: SignalBuffer
    /// Sessions whose sliding expiry waits for `SignalFlusher`.
    public let sessionTouches: SessionTouches
    /// The rate-limit buckets every limit counts in (sign-in, uploads, follows).
    public let buckets: RateBuckets
    /// This server's notification streams and their listener.
    public let notifications: NotificationHub
    /// When this server last began a request other than a claim (claims make way for them).
    public let foreground = ForegroundTraffic()

    public init(
        config: AppConfiguration, database: Database, logger: Logger, loginThrottle: LoginThrottle.Policy = .init(),
        clock: @escaping @Sendable () -> Date = { ServerClock.now() }
    ) {
        self.config = config
        self.database = database
        self.logger = logger
        buckets = RateBuckets(database: database)
        self.loginThrottle = LoginThrottle(buckets: buckets, policy: loginThrottle)
        bcrypt = BcryptPool(capacity: config.bcryptQueue)
        self.clock = clock
        // The caches' counters bind to the metrics backend present when they are made.
        _ = MetricsRegistry.shared
        caching = config.cacheEnabled ? Caching(config: config, database: database) : nil
        insights = InsightCounter(enabled: config.insightsEnabled, clock: clock)
        signals = SignalBuffer()
        sessionTouches = SessionTouches(
            database: database, lifetime: config.sessionLifetime, maxLifetime: config.sessionMaxLifetime)
        notifications = NotificationHub(
            client: database.client, logger: logger, perUser: config.streamsPerUser, total: config.streamsMax,
            heartbeat: config.streamHeartbeat)
    }

    /// Writes `signals` every `SIGNALS_FLUSH_SECONDS` and once more on a clean stop.
    public var signalFlusher: SignalFlusher {
        SignalFlusher(
            buffer: signals, queue: SignalQueue(database: database, halfLife: config.interestHalfLife),
            touches: sessionTouches, interval: config.signalsFlushInterval, clock: clock, logger: logger)
    }

    /// Judges queued reviews beside the requests (docs/TRUST.md).
    public var trustWorker: TrustWorker {
        TrustWorker(
            trust: TrustService(database: database, enabled: config.trustEnabled),
            busy: { [foreground] in foreground.isPresent })
    }

    /// Writes `insights` on a schedule and once more on a clean stop.
    public var insightFlusher: InsightFlusher {
        InsightFlusher(counter: insights, database: database, interval: config.insightsFlushInterval)
    }
}

/// The router, shared by `serve` and the tests.
public func buildRouter(_ services: AppServices) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ResponseHeadersMiddleware())
    router.add(middleware: ClientAddressMiddleware(proxies: services.config.trustedProxies))
    if let directory = services.config.staticDirectory {
        // Inner middleware answers unknown routes with a problem response, not an error: serve files on that 404.
        router.add(
            middleware: FileMiddleware(directory, urlBasePath: "/static", logger: services.logger)
                .withServeOnNotFoundResponse())
    }
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ForegroundTrafficMiddleware(traffic: services.foreground))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: StatementDeadlineMiddleware(reads: services.config.readStatementTimeout))
    if let caching = services.caching {
        router.add(middleware: WriteFenceMiddleware(listener: caching.listener))
    }
    if services.database.replicas != nil {
        router.add(
            middleware: ReadYourWritesMiddleware(
                primary: services.database,
                markerSeconds: max(1, Int(services.config.replicaMaxLag.components.seconds) * 2)))
    }
    HealthController(readiness: Readiness(database: services.database, migrator: Migrator(logger: services.logger)))
        .addRoutes(to: router)
    OpenAPIController().addRoutes(to: router)

    let sessions = SessionRepository(
        database: services.database, lifetime: services.config.sessionLifetime,
        maxLifetime: services.config.sessionMaxLifetime, cache: services.caching?.sessions,
        touches: services.sessionTouches)
    let features = buildServices(services, sessions: sessions)
    let api = router.group("v1").add(middleware: AuthMiddleware(sessions: sessions))
        .add(middleware: ActivityMiddleware(insights: services.insights))
        .add(middleware: RateLimitMiddleware(database: services.database, limits: services.config.rateLimits))
    APIRoutes(services: features, sessions: sessions, hub: services.notifications).add(to: api)

    // The web client: the same services behind cookies, CSRF tokens and HTML.
    let pages = WebPages.shared
    WebAssets(pages: pages).addRoutes(to: router)
    let web = router.group()
        .add(middleware: WebSessionMiddleware(sessions: sessions))
        .add(middleware: ActivityMiddleware(insights: services.insights))
        .add(middleware: WebErrorMiddleware(pages: pages))
        .add(middleware: RateLimitMiddleware(database: services.database, limits: services.config.rateLimits))
    WebController(pages: pages, services: features, sessions: sessions).addRoutes(to: web)
    return router
}

/// The application; `runDatabase` adds the pool as a service (tests run the pool themselves).
public func buildApplication(_ services: AppServices, runDatabase: Bool = true) -> Application<
    RouterResponder<AppRequestContext>
> {
    _ = MetricsRegistry.shared
    // A client that stalls mid-request (or idles on keep-alive) loses its connection after the idle timeout, so
    // hundreds of half-sent headers cannot hold sockets and memory for long.
    let idle = TimeAmount.seconds(services.config.idleTimeout.components.seconds)
    var app = Application(
        router: buildRouter(services),
        server: .http1(configuration: .init(idleTimeout: idle)),
        configuration: .init(
            address: .hostname(services.config.host, port: services.config.port), serverName: "chidian"),
        logger: services.logger)
    if runDatabase {
        app.addServices(PoolService(client: services.database.client, logger: services.logger))
        if let caching = services.caching { app.addServices(caching.listener, MallocTrimmer()) }
        app.addServices(services.notifications)
        app.addServices(
            HousekeepingService(database: services.database, interval: services.config.housekeepingInterval),
            CouponReminders(database: services.database), services.trustWorker)
        // After the pool (stopped before it) and before the server (stopped after it drains).
        app.addServices(services.insightFlusher, services.signalFlusher)
        if let replicas = services.database.replicas {
            let pools = replicas.databases.map { PoolService(client: $0.client, logger: services.logger) }
            app.addServices(pools + [ReplicaMonitor(replicas: replicas)] as [any Service])
        }
    }
    return app
}
