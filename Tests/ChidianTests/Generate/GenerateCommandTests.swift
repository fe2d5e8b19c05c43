import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct GenerateCommandTests {
    @Test func writesTheDirectoryAndPrintsOneSummaryLineThenRefusesToOverwrite() async throws {
        let directory = GeneratedSeed.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = [
            "generate", directory.path, "--stores", "20", "--users", "60", "--comments", "300", "--seed", "9",
        ]
        // MUT
        let first = try await ChidianBinary.run(arguments, databaseURL: nil)
        let second = try await ChidianBinary.run(arguments, databaseURL: nil)
        // validate
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(first.stdout.hasPrefix("generated 60 users"))
        #expect(first.stderr.isEmpty, "no progress output when standard error is not a terminal")
        // Same bytes as the library call with the same arguments.
        let library = GeneratedSeed.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: library) }
        try Generator.write(to: library, stores: 20, users: 60, comments: 300, seed: 9)
        #expect(
            try GeneratedSeed.file(directory, SeedFormat.commentsFile)
                == GeneratedSeed.file(library, SeedFormat.commentsFile))
        // A second run into the now non-empty directory fails in one line.
        #expect(second.status != 0)
        let reason = second.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(reason.contains("not empty"))
        #expect(!reason.contains("\n"), "\(reason)")
    }
}
