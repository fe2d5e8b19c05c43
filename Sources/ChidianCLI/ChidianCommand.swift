import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation
import Logging
import PostgresNIO

/// Runs the command, printing a feature's failure as its one-line message, and reports a database failure with
/// PostgreSQL's own reason: `PSQLError` describes itself generically on purpose (no SQL or binds in logs), which
/// tells a CLI user nothing.
@main
enum Entry {
    static func main() async {
        do {
            var command = try ChidianCommand.parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as any DomainError {
            // A feature's failure (the same ones the API answers as problems): its one line.
            FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
            exit(1)
        } catch let error as PSQLError {
            FileHandle.standardError.write(Data("Error: database: \(error.summary)\n".utf8))
            exit(1)
        } catch {
            ChidianCommand.exit(withError: error)
        }
    }
}

struct ChidianCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chidian",
        abstract: "Chidian (今天吃点啥): the restaurant review backend and its admin tools.",
        discussion: """
            Every subcommand reads DATABASE_URL; without it, the project's private cluster \
            (started by `make db-start`) is used.
            """,
        subcommands: [
            Serve.self, Migrate.self, UserCommand.self, SeedCommand.self, ExportCommand.self, StoreCommand.self,
            CategoryCommand.self, CommentCommand.self, ReportCommand.self, GenerateCommand.self,
            EvalRecommenderCommand.self, EvalTrustCommand.self, OpenAPICommand.self,
            StatsCommand.self, DishCommand.self, ImageCommand.self, HousekeepingCommand.self,
        ]
    )
}

/// Logging goes to standard error so command output stays clean on standard output.
enum CLI {
    static let bootstrap: Void = {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
    }()

    static func setUp() throws -> (AppConfiguration, Logger) {
        _ = bootstrap
        let config = try AppConfiguration.fromEnvironment()
        var logger = Logger(label: "chidian")
        logger.logLevel = config.logLevel
        return (config, logger)
    }

    /// Quiet logger for commands whose output is the point.
    static func quietLogger(_ config: AppConfiguration) -> Logger {
        var logger = Logger(label: "chidian")
        logger.logLevel = min(.warning, config.logLevel == .trace ? .trace : .warning)
        return logger
    }
}
