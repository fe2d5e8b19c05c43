import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

/// `chidian comment …` and `chidian report …`: moderation, as the HTTP queue does it (logged without an admin id).
struct CommentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "comment", abstract: "Moderate reviews and notices.", subcommands: [Hide.self, Restore.self])

    struct Hide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Hide a comment from every list and close its reports (kept in the database; its rating leaves the store's totals)."
        )

        @Argument(help: "The comment's id.") var id: String
        @Option(help: "Why, for the moderation log.") var note: String?

        func run() async throws {
            let item = try await CLI.moderate(.hide, id: id, note: note)
            print("comment \(id) hidden; \(item.reportCount) report(s) closed")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a hidden comment again: back in every list and its store's totals.")

        @Argument(help: "The comment's id.") var id: String
        @Option(help: "Why, for the moderation log.") var note: String?

        func run() async throws {
            _ = try await CLI.moderate(.restore, id: id, note: note)
            print("comment \(id) restored")
        }
    }
}

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "The moderation queue.", subcommands: [List.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reported comments, most reported first: open reports, or with --closed the closed ones.")

        @Flag(help: "List comments whose reports are all closed.") var closed = false
        @Option(help: "At most this many comments.") var limit = 100

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let page = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await Moderation(database: database).queue(
                    open: !closed, page: PageRequest(limit: max(1, min(limit, 100))))
            }
            print(["comment", "reports", "reasons", "hidden", "author", "store", "text"].joined(separator: "\t"))
            for item in page.items {
                let reasons = Set(item.reports.map(\.reason)).sorted().joined(separator: ",")
                let text = item.comment.body.prefix(40).replacingOccurrences(of: "\n", with: " ")
                print(
                    [
                        item.comment.id, String(item.reportCount), reasons, item.hidden ? "yes" : "no",
                        item.comment.author.name, item.comment.store.name, text,
                    ].joined(separator: "\t"))
            }
        }
    }
}

extension CLI {
    static func moderate(_ action: ModerationAction, id: String, note: String?) async throws -> ModerationItem {
        let (config, _) = try CLI.setUp()
        return try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
            try await Moderation(database: database).act(
                action, commentID: id, adminID: nil, note: try Moderation.validNote(note))
        }
    }
}
