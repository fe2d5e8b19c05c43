import Foundation
import Logging
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct MigratorTests {
    let logger = TestDatabase.logger
    let files = [
        Migration(name: "001_a.sql", sql: "CREATE TABLE a (id int); INSERT INTO a VALUES (1);"),
        Migration(name: "002_b.sql", sql: "CREATE TABLE b (id int);"),
    ]

    func appliedNames(_ database: Database) async throws -> [String] {
        try await database.query("SELECT name FROM schema_migrations ORDER BY name").map { try $0.decode(String.self) }
    }

    @Test func appliesInOrderOnceAndRecordsChecksums() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            let migrator = Migrator(migrations: files, logger: logger)
            // MUT
            let first = try await database.withConnection { try await migrator.migrate(on: $0) }
            let second = try await database.withConnection { try await migrator.migrate(on: $0) }
            // validate
            #expect(first == ["001_a.sql", "002_b.sql"])
            #expect(second == [])
            #expect(try await appliedNames(database) == ["001_a.sql", "002_b.sql"])
            let checksum = try await database.query("SELECT sha256 FROM schema_migrations WHERE name = '001_a.sql'")
            #expect(try checksum[0].decode(String.self) == files[0].checksum)
            #expect(files[0].checksum.count == 64)
        }
    }

    @Test func appliesOnlyTheNewFile() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            _ = try await database.withConnection {
                try await Migrator(migrations: [files[0]], logger: logger).migrate(on: $0)
            }
            let applied = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).migrate(on: $0)
            }
            #expect(applied == ["002_b.sql"])
        }
    }

    @Test func refusesAChangedFile() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            _ = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).migrate(on: $0)
            }
            let changed = [files[0], Migration(name: "002_b.sql", sql: "CREATE TABLE b (id bigint);")]
            await #expect(
                throws: MigrationError(description: "applied migration 002_b.sql has changed since it was applied")
            ) {
                try await database.withConnection {
                    try await Migrator(migrations: changed, logger: logger).migrate(on: $0)
                }
            }
        }
    }

    @Test func refusesAMissingFile() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            _ = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).migrate(on: $0)
            }
            await #expect(throws: MigrationError(description: "applied migration 001_a.sql is missing from sql/")) {
                try await database.withConnection {
                    try await Migrator(migrations: [files[1]], logger: logger).migrate(on: $0)
                }
            }
        }
    }

    @Test func anOlderBinaryRunsAgainstANewerReleasesSchema() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            // setup: the newer release migrated (both files); the older binary knows only the first
            _ = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).migrate(on: $0)
            }
            let older = Migrator(migrations: [files[0]], logger: logger)
            // MUT
            let applied = try await database.withConnection { try await older.migrate(on: $0) }
            let current = try await database.withConnection { try await older.isCurrent(on: $0) }
            // validate: nothing to do, and its /ready says ready (a rolling deploy, or a rollback)
            #expect(applied == [])
            #expect(current)
            #expect(try await appliedNames(database) == ["001_a.sql", "002_b.sql"])
        }
    }

    @Test func refusesAFileSortingBeforeAnAppliedOne() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            _ = try await database.withConnection {
                try await Migrator(migrations: [files[1]], logger: logger).migrate(on: $0)
            }
            await #expect(throws: MigrationError.self) {
                try await database.withConnection {
                    try await Migrator(migrations: files, logger: logger).migrate(on: $0)
                }
            }
        }
    }

    @Test func aFailingFileRollsBackEverything() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            let broken = [
                files[0], Migration(name: "002_bad.sql", sql: "CREATE TABLE c (id int); SELECT * FROM nowhere;"),
            ]
            await #expect(throws: MigrationError.self) {
                try await database.withConnection {
                    try await Migrator(migrations: broken, logger: logger).migrate(on: $0)
                }
            }
            let tables = try await database.query("SELECT count(*) FROM pg_tables WHERE tablename IN ('a', 'c')")
            #expect(try tables[0].decode(Int.self) == 0)
        }
    }

    @Test func dryRunListsPendingAndChangesNothing() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            let pending = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).pending(on: $0)
            }
            #expect(pending.map(\.name) == ["001_a.sql", "002_b.sql"])
            // Not even the tracking table: the database stays empty.
            let relations = try await database.query(
                "SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'"
            )
            #expect(try relations[0].decode(Int.self) == 0)
        }
    }

    @Test func dryRunAfterSomeAreAppliedListsOnlyTheRest() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            _ = try await database.withConnection {
                try await Migrator(migrations: [files[0]], logger: logger).migrate(on: $0)
            }
            let pending = try await database.withConnection {
                try await Migrator(migrations: files, logger: logger).pending(on: $0)
            }
            #expect(pending.map(\.name) == ["002_b.sql"])
            #expect(try await appliedNames(database) == ["001_a.sql"])
        }
    }

    @Test func embeddedMigrationsMatchTheSQLFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../sql")
        // Migrations are the numbered files; sql/schema.sql is generated from them.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") && $0.first?.isNumber == true }.sorted()
        #expect(Migration.embedded.map(\.name) == names)
        for migration in Migration.embedded {
            #expect(
                try String(contentsOf: folder.appendingPathComponent(migration.name), encoding: .utf8) == migration.sql)
        }
    }

    @Test func theRealSchemaAppliesToAnEmptyDatabase() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, _ in
            let applied = try await database.with(timeout: .seconds(30)).withConnection {
                try await Migrator(logger: logger).migrate(on: $0)
            }
            #expect(applied == Migration.embedded.map(\.name))
            #expect(try await database.withConnection { try await Migrator(logger: logger).isCurrent(on: $0) })
        }
    }
}

/// `serve`'s check at start waits as long as it is told, not the pool's write deadline.
@Suite struct MigratorStartTests {
    @Test func theCheckAtStartOutwaitsThePoolsDeadline() async throws {
        try await TestDatabase.withFresh { database, url in
            let migrator = Migrator(logger: TestDatabase.logger)
            try await database.withConnection { locker in
                // setup: another session holds the tracking table, so reading it waits. The locker sits idle in
                // its transaction for seconds, so it opts out of the pool's idle limit first.
                try await locker.rows("SET idle_in_transaction_session_timeout = 0", logger: TestDatabase.logger)
                try await locker.rows("BEGIN", logger: TestDatabase.logger)
                try await locker.rows(
                    "LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
                try await database.withConnection { checker in
                    // The production write deadline.
                    try await checker.rows("SET statement_timeout = 2000", logger: TestDatabase.logger)
                    // MUT: under the session's deadline the check fails (what ended a server's start) …
                    let refused = await #expect(throws: PSQLError.self) { try await migrator.isCurrent(on: checker) }
                    #expect(refused?.serverInfo?[.sqlState] == "57014")
                    // … under its own it waits until the lock is released, past the session's deadline
                    let check = Task { try await migrator.isCurrent(on: checker, deadline: .seconds(60)) }
                    // released once PostgreSQL's clock says the check has waited past the session's 2 s
                    try await TestDatabase.waitForLockWait(in: url.database, longerThan: .milliseconds(2500), or: check)
                    try await locker.rows("COMMIT", logger: TestDatabase.logger)
                    let current = try await check.value
                    // validate
                    #expect(current)
                    let after = try await checker.rows("SHOW statement_timeout", logger: TestDatabase.logger)
                    #expect(try after.first?.decode(String.self) == "2s", "the deadline was the transaction's only")
                }
            }
        }
    }
}
