import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply the SQL migrations compiled into this binary, in one transaction.")

    @Flag(help: "List what would run and change nothing.") var dryRun = false

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let migrator = Migrator(logger: logger)
        let names: [String] = try await withDatabase(config, logger: logger) { database in
            try await database.with(timeout: .seconds(30)).withConnection { connection in
                dryRun
                    ? try await migrator.pending(on: connection).map(\.name)
                    : try await migrator.migrate(on: connection)
            }
        }
        if names.isEmpty {
            print("nothing to apply: the schema is current")
        } else {
            for name in names { print(dryRun ? "would apply \(name)" : "applied \(name)") }
        }
    }
}
