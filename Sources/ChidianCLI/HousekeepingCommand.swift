import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct HousekeepingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "housekeeping",
        abstract:
            "Deletes expired sessions, visitor interests idle for 90 days, uploads never attached in 24 hours and spent rate-limit rows; prints what it removed."
    )

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let report = try await withDatabase(config, logger: logger) { try await Housekeeping.run($0) }
        guard let report else { throw ValidationError("another housekeeping run holds the lock; try again shortly") }
        print(report)
    }
}
