import Foundation
import Testing

@testable import Chidian

/// Runs the built `chidian` binary as a user would.
enum ChidianBinary {
    static var url: URL {
        // The test bundle sits next to the executables in the build folder.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("chidian")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/chidian")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], databaseURL: DatabaseURL?, in directory: String = "/tmp", input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL?.description
        environment["BCRYPT_COST"] = "4"
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite struct MigrateCommandTests {
    @Test func migratesFromAnotherDirectoryThenAppliesNothing() async throws {
        let url = try await TestDatabase.fresh(migrated: false)
        defer { Task { try? await TestDatabase.drop(url) } }
        // MUT
        let dryRun = try ChidianBinary.run(["migrate", "--dry-run"], databaseURL: url)
        let first = try ChidianBinary.run(["migrate"], databaseURL: url)
        let second = try ChidianBinary.run(["migrate"], databaseURL: url)
        // validate
        #expect(dryRun.status == 0)
        #expect(dryRun.stdout.contains("would apply 001_schema.sql"))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("applied 001_schema.sql"))
        #expect(second.status == 0)
        #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "nothing to apply: the schema is current")
    }

    @Test func serveRefusesASchemaThatIsBehindInOneLine() async throws {
        let url = try await TestDatabase.fresh(migrated: false)
        defer { Task { try? await TestDatabase.drop(url) } }
        let result = try ChidianBinary.run(["serve", "--port", "18089"], databaseURL: url)
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
