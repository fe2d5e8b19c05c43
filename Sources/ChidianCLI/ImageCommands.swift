import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation

/// `chidian images …`: image bytes are kept in PostgreSQL; this brings in those of an older, file-based install.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images", abstract: "Maintain stored images.", subcommands: [Load.self])

    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load the bytes of images uploaded before they moved into PostgreSQL from an old IMAGE_DIR.")
        @Argument(help: "The old image directory (files named by SHA-256 under two-character folders).") var directory:
            String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let report = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await ImageFileLoader(database: database).run(directory: URL(fileURLWithPath: directory))
            }
            print(report)
        }
    }
}
