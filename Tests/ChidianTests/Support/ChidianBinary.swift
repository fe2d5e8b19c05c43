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
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
            ".build/debug/chidian")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(
        _ arguments: [String], databaseURL: DatabaseURL?, in directory: String = "/tmp", input: String? = nil
    ) throws -> Result {
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
