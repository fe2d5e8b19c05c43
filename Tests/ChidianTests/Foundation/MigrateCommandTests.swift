import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct MigrateCommandTests {
    @Test func migratesFromAnotherDirectoryThenAppliesNothing() async throws {
        let url = try await TestDatabase.fresh(migrated: false)
        defer { Task { try? await TestDatabase.drop(url) } }
        // MUT
        let dryRun = try await ChidianBinary.run(["migrate", "--dry-run"], databaseURL: url)
        let first = try await ChidianBinary.run(["migrate"], databaseURL: url)
        let second = try await ChidianBinary.run(["migrate"], databaseURL: url)
        // validate
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.contains("would apply 001_schema.sql"))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("applied 001_schema.sql"))
        #expect(second.status == 0)
        #expect(
            second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "nothing to apply: the schema is current")
    }

    @Test func serveRefusesASchemaThatIsBehindInOneLine() async throws {
        let url = try await TestDatabase.fresh(migrated: false)
        defer { Task { try? await TestDatabase.drop(url) } }
        let result = try await ChidianBinary.run(["serve", "--port", "18089"], databaseURL: url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("schema is behind"))
        #expect(result.stderr.contains("chidian migrate"))
    }

    @Test func badConfigurationIsNamed() throws {
        var environment = ["PORT": "http", "BCRYPT_COST": "99", "LOG_LEVEL": "loud"]
        environment["DATABASE_URL"] = "mysql://x"
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(environment) }
        do {
            _ = try AppConfiguration.fromEnvironment(environment)
        } catch let error as ConfigurationError {
            #expect(error.problems.count == 4)
            #expect(error.description.contains("PORT=http"))
            #expect(error.description.contains("BCRYPT_COST=99"))
        }
    }
}
