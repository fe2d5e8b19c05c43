import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Runs the built `chidian` binary as a user would.
enum ChidianBinary {
    static var url: URL {
        // The test bundle sits next to the executables in the build folder.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("chidian")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
            ".build/debug/chidian")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `chidian` to its end (one that never ends is a hang, which the suite's watchdog names with its test).
    static func run(
        _ arguments: [String], databaseURL: DatabaseURL?, in directory: String = "/tmp", input: String? = nil
    ) async throws -> Result {
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = databaseURL?.description
        environment["BCRYPT_COST"] = "4"
        // Waiting 3 s for a connection is for production; a test machine under a full suite can take longer.
        environment["DB_TIMEOUT_MS"] = "15000"
        let child = try ChildProcess(url, arguments, environment: environment, directory: directory, input: input)
        defer { child.removeFiles() }
        let status = await child.exited()
        return Result(status: status, stdout: child.output, stderr: child.error)
    }
}
