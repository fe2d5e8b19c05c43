import Crypto
import Foundation
import Logging
import PostgresNIO
import Synchronization

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Each test gets its own database cloned from a migrated template (kept between runs, named by the
/// migrations' checksums). Only a local server is ever touched.
enum TestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }()

    static let serverURL: DatabaseURL = {
        let raw =
            ProcessInfo.processInfo.environment["DATABASE_URL"] ?? LocalCluster.databaseURL()
            ?? AppConfiguration.defaultDatabaseURL
        guard let url = try? DatabaseURL(raw) else { fatalError("DATABASE_URL is not a postgres URL") }
        precondition(url.isLocal, "tests refuse a non-local database host (\(url.host))")
        return url
    }()

    static var templateName: String {
        // Names too: a renamed file with the same content is another history.
        let digest = SHA256.hash(data: Data(Migration.embedded.map { $0.name + $0.checksum }.joined().utf8))
        return "chidian_tpl_" + digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }

    /// The tests' pools: a transaction may sit idle for a minute (the production 5 s is for clients that vanished;
    /// a shake beside a CI build saw this suite's own client stall past it between two statements). Tests of the
    /// limit itself set theirs.
    static func config(_ url: DatabaseURL, databaseTimeout: Duration) -> AppConfiguration {
        var config = AppConfiguration(databaseURL: url.description, databaseTimeout: databaseTimeout)
        config.idleInTransactionTimeout = .seconds(60)
        return config
    }

    /// Runs `body` with a pool on the server's maintenance database.
    static func withAdmin<T>(_ body: (Database) async throws -> T) async throws -> T {
        // Generous: creating and dropping databases waits on checkpoints, slow on a loaded CI machine.
        let config = Self.config(serverURL.with(database: "postgres"), databaseTimeout: .seconds(60))
        return try await withDatabase(config, logger: logger, poolSize: 1) { try await body($0) }
    }

    private static let template = Task<String, any Error> {
        let name = templateName
        try await withAdmin { admin in
            let exists = try await admin.query("SELECT 1 FROM pg_database WHERE datname = \(name)")
            if !exists.isEmpty { return }
            let building = name + "_building_\(ProcessInfo.processInfo.processIdentifier)"
            try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(building)\" WITH (FORCE)"))
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(building)\""))
            let config = Self.config(serverURL.with(database: building), databaseTimeout: .seconds(3))
            _ = try await withDatabase(config, logger: logger, poolSize: 1) { database in
                try await database.with(timeout: .seconds(60)).withConnection { connection in
                    try await Migrator(logger: logger).migrate(on: connection)
                }
            }
            // Another test process may have won the race; either template is the same.
            do {
                try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \"\(building)\" RENAME TO \"\(name)\""))
            } catch {
                try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(building)\""))
            }
        }
        return name
    }

    /// A new database holding the migrated schema and no data.
    static func fresh(migrated: Bool = true) async throws -> DatabaseURL {
        let name = "chidian_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let source = migrated ? try await template.value : "template0"
        _ = try await withAdmin { admin in
            try await admin.with(timeout: .seconds(60)).query(
                PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\" TEMPLATE \"\(source)\""))
        }
        return serverURL.with(database: name)
    }

    /// Runs `body` with a small pool on an existing test database (one that servers under test also use).
    static func withPool<T>(_ url: DatabaseURL, _ body: (Database) async throws -> T) async throws -> T {
        let config = Self.config(url, databaseTimeout: .seconds(120))
        return try await ChidianApp.withDatabase(config, logger: logger, poolSize: 2, body)
    }

    static func drop(_ url: DatabaseURL) async throws {
        _ = try await withAdmin { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(url.database)\" WITH (FORCE)"))
        }
    }

    /// Runs `body` with a pool on a fresh database, dropping it afterwards.
    static func withFresh<T>(migrated: Bool = true, _ body: (Database, DatabaseURL) async throws -> T) async throws -> T
    {
        let url = try await fresh(migrated: migrated)
        do {
            // A generous wait for a pooled connection: tests run in parallel on shared, slow CI machines (sixty-four
            // purchases queued on one store's row lock waited past 30 s beside three builds).
            let config = Self.config(url, databaseTimeout: .seconds(120))
            // Eight: the cache listener and the notification hub each hold one for good, and the live import test
            // holds one, the import one and two writers waiting on it while reads must still get through.
            let result = try await withDatabase(config, logger: logger, poolSize: 8) { try await body($0, url) }
            try await drop(url)
            return result
        } catch {
            try? await drop(url)
            throw error
        }
    }
}

extension TestDatabase {
    /// Returns true once a statement in `database` has waited on a lock for longer than `age` by PostgreSQL's clock,
    /// or false once `work` has finished (work that failed early ends the wait so, and fails its own check). Asked
    /// from a session of its own: one inside the lock's transaction would keep seeing pg_stat_activity as first read.
    @discardableResult
    static func waitForLockWait<T: Sendable>(
        in database: String, longerThan age: Duration, or work: Task<T, any Error>
    ) async throws -> Bool {
        let finished = Atomic<Bool>(false)
        let watcher = Task {
            _ = try? await work.value
            finished.store(true, ordering: .releasing)
        }
        defer { watcher.cancel() }
        let seconds = Double(StatementDeadlines.milliseconds(age)) / 1000
        return try await withAdmin { admin in
            while !finished.load(ordering: .acquiring) {
                let rows = try await admin.query(
                    """
                    SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = \(database)
                      AND clock_timestamp() - query_start > make_interval(secs => \(seconds))
                    """)
                if try rows.first?.decode(Int.self) ?? 0 > 0 { return true }
                // timing: a poll of PostgreSQL's clock, not a bound: it ends on that event or when the work ends
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
    }

    /// Waits until the server has ended the session `pid`: a test that has the server end a session asks when it
    /// has, instead of sleeping and hoping a loaded machine was quick.
    static func waitUntilEnded(_ pid: Int32) async throws {
        try await withAdmin { admin in
            while try await !admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = \(pid)").isEmpty {
                // timing: a poll with no bound; it ends once the session is gone
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }
}
