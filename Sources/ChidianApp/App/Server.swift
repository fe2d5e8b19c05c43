import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

public struct ServeError: Error, CustomStringConvertible {
    public let description: String
}

/// `chidian serve`: refuses a schema that is behind unless asked to migrate, then serves until SIGTERM/SIGINT,
/// letting in-flight requests finish.
public enum Server {
    public static func run(config: AppConfiguration, migrate: Bool, logger: Logger) async throws {
        limitMallocArenas()
        // Metrics first: counters made while building (the replicas') bind to the backend present at creation.
        _ = MetricsRegistry.shared
        let url = try DatabaseURL(config.databaseURL)
        let primary = Database(
            url: url, poolSize: config.poolSize, timeout: config.databaseTimeout,
            statementTimeout: config.statementTimeout, idleInTransaction: config.idleInTransactionTimeout,
            logger: logger)
        let database = try withReplicas(primary, config: config, logger: logger)
        var app = buildApplication(AppServices(config: config, database: database, logger: logger))
        app.beforeServerStarts {
            try await primary.withConnection { connection in
                let migrator = Migrator(logger: logger)
                if migrate {
                    try await migrator.migrate(on: connection)
                } else if !(try await migrator.isCurrent(on: connection, deadline: .seconds(60))) {
                    throw ServeError(
                        description:
                            "the database schema is behind (\(url.description)): run `chidian migrate` or `chidian serve --migrate`"
                    )
                }
            }
        }
        // SIGTERM lets in-flight requests finish; past the grace, what is left is cancelled, so a service stuck in its
        // stop cannot hold the process (an orchestrator would SIGKILL it, losing the last flush).
        var group = ServiceGroupConfiguration(
            services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = config.shutdownGrace
        try await ServiceGroup(configuration: group).run()
    }

    /// glibc gives each thread that allocates its own arena (up to 8 per core) and keeps their freed memory: with
    /// the cache's entries allocated on any of the executor's threads, that held ~20 MB more RSS under the
    /// benchmark. Two arenas, as `MALLOC_ARENA_MAX=2` would set, unless the environment says otherwise.
    package static func limitMallocArenas() {
        #if canImport(Glibc)
            // malloc.h is not in the Glibc module: look `mallopt` up (M_ARENA_MAX is -8).
            guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil,
                let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
            else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-8, 2)
        #endif
    }

    /// The primary's pool with the replicas of `DATABASE_READ_URLS` for `forReads` to choose from.
    package static func withReplicas(_ primary: Database, config: AppConfiguration, logger: Logger) throws -> Database {
        guard !config.readDatabaseURLs.isEmpty else { return primary }
        // A read waits briefly for a replica's connection, then goes to the primary.
        let replicas = try config.readDatabaseURLs.map {
            Database(
                url: try DatabaseURL($0), poolSize: config.poolSize,
                timeout: min(config.databaseTimeout, .milliseconds(500)), statementTimeout: config.statementTimeout,
                idleInTransaction: config.idleInTransactionTimeout, logger: logger)
        }
        let set = ReplicaSet(primary: primary, replicas: replicas, maxLag: config.replicaMaxLag)
        // The primary's deadlines too: without them reads there ran under the writes' deadline, and a connection a
        // fallback read had lowered kept that deadline for the next write.
        return Database(
            client: primary.client, timeout: primary.timeout, logger: logger, replicas: set,
            deadlines: primary.deadlines)
    }
}

/// Runs `body` with a small pool for CLI work, closing it afterwards.
public func withDatabase<T>(
    _ config: AppConfiguration, logger: Logger, poolSize: Int = 4, _ body: (Database) async throws -> T
) async throws -> T {
    let url = try DatabaseURL(config.databaseURL)
    let database = Database(
        url: url, poolSize: poolSize, timeout: config.databaseTimeout,
        idleInTransaction: config.idleInTransactionTimeout, logger: logger)
    return try await withRunning(database.client, logger: logger) { try await body(database) }
}

/// Runs `body` while `client` runs, then cancels the client and waits at most `grace` for it to stop. A pool whose
/// `run()` outlives its cancellation (seen once in a CI run: a test stalled for good with no connection and no
/// timer left) is abandoned with a warning instead of holding its caller for ever.
public func withRunning<T>(
    _ client: PostgresClient, grace: Duration = .seconds(10), logger: Logger, _ body: () async throws -> T
) async throws -> T {
    // A lease before run() has begun works but logs a PostgresNIO warning into a command's one-line output;
    // run() marks itself running before its first suspension, so the body waits for that task to begin.
    let (begun, signal) = AsyncStream<Void>.makeStream()
    let runner = Task {
        signal.finish()
        await client.run()
    }
    for await _ in begun {}
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    await stop(runner, grace: grace, logger: logger)
    return try result.get()
}

/// Whether `task` ends within `limit`; never waits longer, even for a task that ignores its cancellation.
package func finished(_ task: Task<Void, Never>, within limit: Duration) async -> Bool {
    let once = Once()
    return await withCheckedContinuation { continuation in
        let timer = Task {
            try? await Task.sleep(for: limit)
            if once.claim() { continuation.resume(returning: false) }
        }
        Task {
            await task.value
            timer.cancel()
            if once.claim() { continuation.resume(returning: true) }
        }
    }
}

/// True for the first caller only.
private final class Once: Sendable {
    private let claimed = Atomic<Bool>(false)
    func claim() -> Bool { !claimed.exchange(true, ordering: .acquiringAndReleasing) }
}
