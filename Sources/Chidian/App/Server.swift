import HTTPTypes
import Hummingbird
import Logging

public struct ServeError: Error, CustomStringConvertible {
    public let description: String
}

/// `chidian serve`: refuses a schema that is behind unless asked to migrate, then serves until SIGTERM/SIGINT,
/// letting in-flight requests finish.
public enum Server {
    public static func run(config: AppConfiguration, migrate: Bool, logger: Logger) async throws {
        // Metrics first: counters made while building (the replicas') bind to the backend present at creation.
        _ = MetricsRegistry.shared
        let url = try DatabaseURL(config.databaseURL)
        let primary = Database(
            url: url, poolSize: config.poolSize, timeout: config.databaseTimeout,
            statementTimeout: config.statementTimeout, logger: logger)
        let database = try withReplicas(primary, config: config, logger: logger)
        var app = buildApplication(AppServices(config: config, database: database, logger: logger))
        app.beforeServerStarts {
            try await primary.withConnection { connection in
                let migrator = Migrator(logger: logger)
                if migrate {
                    try await migrator.migrate(on: connection)
                } else if !(try await migrator.isCurrent(on: connection)) {
                    throw ServeError(
                        description:
                            "the database schema is behind (\(url.description)): run `chidian migrate` or `chidian serve --migrate`"
                    )
                }
            }
        }
        try await app.runService()
    }

    /// The primary's pool with the replicas of `DATABASE_READ_URLS` for `forReads` to choose from.
    static func withReplicas(_ primary: Database, config: AppConfiguration, logger: Logger) throws -> Database {
        guard !config.readDatabaseURLs.isEmpty else { return primary }
        // A read waits briefly for a replica's connection, then goes to the primary.
        let replicas = try config.readDatabaseURLs.map {
            Database(
                url: try DatabaseURL($0), poolSize: config.poolSize,
                timeout: min(config.databaseTimeout, .milliseconds(500)), statementTimeout: config.statementTimeout,
                logger: logger)
        }
        let set = ReplicaSet(primary: primary, replicas: replicas, maxLag: config.replicaMaxLag)
        return Database(client: primary.client, timeout: primary.timeout, logger: logger, replicas: set)
    }
}

/// Runs `body` with a small pool for CLI work, closing it afterwards.
public func withDatabase<T>(
    _ config: AppConfiguration, logger: Logger, poolSize: Int = 4, _ body: (Database) async throws -> T
) async throws -> T {
    let url = try DatabaseURL(config.databaseURL)
    let database = Database(url: url, poolSize: poolSize, timeout: config.databaseTimeout, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        // A lease before run() has begun works but logs a PostgresNIO warning into the command's one-line output;
        // run() marks itself running before its first suspension, so the body waits for that task to begin.
        let (begun, signal) = AsyncStream<Void>.makeStream()
        group.addTask {
            signal.finish()
            await database.client.run()
        }
        defer { group.cancelAll() }
        for await _ in begun {}
        return try await body(database)
    }
}
