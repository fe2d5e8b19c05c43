import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation

struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract:
            "Import a directory in the original app's JSON format (userInfo.json, store.json, comment.json, images/).",
        discussion: """
            Everything is validated before anything is written, and the import is one transaction: all or nothing. \
            Ids are kept, so importing the same directory again changes nothing. Every error names the file, the \
            array index, the field and the bad value.
            """)

    @Argument(help: "The seed directory.") var directory: String
    @Flag(help: "Validate only; write nothing.") var dryRun = false

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let url = URL(fileURLWithPath: directory)
        let report: SeedImporter.Report
        do {
            report = try await withDatabase(config, logger: logger) { database in
                try await SeedImporter(database: database, config: config)
                    .run(directory: url, dryRun: dryRun, progress: ProgressReporter(label: "seed"))
            }
        } catch let error as SeedError {
            for issue in error.issues { FileHandle.standardError.write(Data("error: \(issue)\n".utf8)) }
            throw error
        }
        for warning in report.warnings { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        print(report)
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the data in the seed format (passwords as bcrypt hashes) into a new or empty directory.")

    @Argument(help: "The directory to create (it must be absent or empty).") var directory: String

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let report = try await withDatabase(config, logger: logger) { database in
            try await SeedExporter(database: database)
                .run(directory: URL(fileURLWithPath: directory), progress: ProgressReporter(label: "export"))
        }
        print(report)
    }
}
