import Crypto
import Foundation
import Logging
import PostgresNIO

/// One `sql/NNN_name.sql` file, embedded in the binary at build time.
public struct Migration: Sendable, Equatable {
    public let name: String
    public let sql: String
    public var checksum: String { SHA256.hash(data: Data(sql.utf8)).hexString }

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The migrations compiled into this binary, in order.
    public static let embedded: [Migration] = embeddedMigrationFiles.map {
        Migration(name: $0.name, sql: String(decoding: Data(base64Encoded: $0.base64) ?? Data(), as: UTF8.self))
    }.sorted { $0.name < $1.name }
}

public struct MigrationError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

/// Applies pending migrations in one transaction, refusing a history that has diverged from the files.
public struct Migrator: Sendable {
    public let migrations: [Migration]
    public let logger: Logger
    /// Reference data whose source is Swift (the dish catalogue), written after the files in their transaction.
    let referenceData: [@Sendable (PostgresConnection, Logger) async throws -> Void]

    public init(migrations: [Migration] = Migration.embedded, logger: Logger) {
        self.migrations = migrations
        self.logger = logger
        // It needs the tables the embedded files make; a custom list (the migrator's own tests) has none of them.
        referenceData = migrations == Migration.embedded ? [DishVocabulary.syncCatalog] : []
    }

    public struct Applied: Sendable, Equatable {
        public let name: String
        public let checksum: String
    }

    /// What `migrate` would run, after checking the applied history against the files. Writes nothing: on a
    /// database never migrated (no tracking table yet) every migration is pending.
    public func pending(on connection: PostgresConnection) async throws -> [Migration] {
        guard try await hasTable(connection) else { return try plan(applied: []) }
        return try plan(applied: try await applied(connection))
    }

    func hasTable(_ connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.rows("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
        return try rows.first?.decode(Bool.self) == true
    }

    /// Applies every pending migration in one transaction and returns their names.
    @discardableResult
    public func migrate(on connection: PostgresConnection) async throws -> [String] {
        // `serve --migrate` runs on the request pool: its per-statement deadline and its idle-in-transaction
        // limit (for clients that vanish mid-transaction) are not for migrations, which run Swift between
        // statements (the dish catalogue) on a machine that may be busy.
        try await connection.transaction(idle: .zero, logger: logger) {
            try await connection.rows("SET LOCAL statement_timeout = 0", logger: logger)
            // One migrator at a time, whoever else starts (parallel tests, two servers with --migrate).
            try await connection.rows("SELECT pg_advisory_xact_lock(7041977)", logger: logger)
            try await ensureTable(connection)
            let pending = try plan(applied: try await applied(connection))
            for migration in pending {
                for statement in SQLScript.statements(migration.sql) {
                    do {
                        try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
                    } catch let error as PSQLError {
                        throw MigrationError(
                            description: "\(migration.name) failed: \(error.serverInfo?[.message] ?? "\(error.code)")")
                    }
                }
                let checksum = migration.checksum
                try await connection.rows(
                    "INSERT INTO schema_migrations (name, sha256) VALUES (\(migration.name), \(checksum))",
                    logger: logger)
                logger.info("applied migration", metadata: ["migration": .string(migration.name)])
            }
            for write in referenceData { try await write(connection, logger) }
            return pending.map(\.name)
        }
    }

    /// Checks the applied history: every applied file must still exist unchanged, and the applied files
    /// must be the first ones in order (a new file sorting before an applied one means the histories diverged).
    public func plan(applied: [Applied]) throws -> [Migration] {
        let byName = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0) })
        let newest = migrations.map(\.name).max() ?? ""
        for entry in applied {
            guard let file = byName[entry.name] else {
                // A newer release's migration (it sorts after all of ours): during a rolling deploy or a rollback
                // this binary runs against the expanded schema (docs/OPERATIONS.md, expand then contract).
                if entry.name > newest { continue }
                throw MigrationError(description: "applied migration \(entry.name) is missing from sql/")
            }
            if file.checksum != entry.checksum {
                throw MigrationError(description: "applied migration \(entry.name) has changed since it was applied")
            }
        }
        let appliedNames = Set(applied.map(\.name))
        let pending = migrations.filter { !appliedNames.contains($0.name) }
        if let lastApplied = applied.map(\.name).filter({ byName[$0] != nil }).max(),
            let early = pending.first(where: { $0.name < lastApplied })
        {
            throw MigrationError(
                description: "migration \(early.name) sorts before the applied \(lastApplied): the history has diverged"
            )
        }
        return pending
    }

    func ensureTable(_ connection: PostgresConnection) async throws {
        try await connection.rows(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name text PRIMARY KEY,
                sha256 text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
    }

    package func applied(_ connection: PostgresConnection) async throws -> [Applied] {
        try await connection.rows("SELECT name, sha256 FROM schema_migrations ORDER BY name", logger: logger)
            .map { row in
                let (name, checksum) = try row.decodeAll((String, String).self)
                return Applied(name: name, checksum: checksum)
            }
    }

    /// True when every embedded migration is applied and none has diverged; used by `/ready` and `serve`.
    public func isCurrent(on connection: PostgresConnection) async throws -> Bool {
        guard try await hasTable(connection) else { return false }
        return try plan(applied: try await applied(connection)).isEmpty
    }

    /// `isCurrent` under its own statement deadline instead of the pool's: `serve`'s check at start is not a
    /// request, and a server that starts while the database is busy must not exit on the 2 s write deadline (a
    /// shake beside a CI build saw `57014` end a start).
    public func isCurrent(on connection: PostgresConnection, deadline: Duration) async throws -> Bool {
        try await connection.transaction(idle: deadline, logger: logger) {
            let milliseconds = String(StatementDeadlines.milliseconds(deadline))
            try await connection.rows("SELECT set_config('statement_timeout', \(milliseconds), true)", logger: logger)
            return try await isCurrent(on: connection)
        }
    }
}

extension Sequence where Element == UInt8 {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
