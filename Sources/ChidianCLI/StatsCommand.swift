import ArgumentParser
import Chidian

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Counts, and the top stores by rating score and by ad spend.")

    @Option(help: "How many top stores to list.") var top = 5

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let stats = try await withDatabase(config, logger: logger) {
            try await Stats.load($0, top: max(1, min(top, 100)))
        }
        print(stats)
    }
}
