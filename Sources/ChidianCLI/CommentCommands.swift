import ArgumentParser
import Chidian

/// `chidian comment …`: moderation.
struct CommentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comment", abstract: "Moderate reviews and notices.", subcommands: [Hide.self])

    struct Hide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hide a comment from every list (kept in the database; its rating leaves the store's totals).")

        @Argument(help: "The comment's id.") var id: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            let result = try await withDatabase(config, logger: logger) { database in
                try await CommentModeration.hide(id: id, database: database)
            }
            switch result {
            case .hidden: print("hid comment \(id)")
            case .alreadyHidden: print("comment \(id) was already hidden")
            }
        }
    }
}
