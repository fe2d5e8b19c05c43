import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation

/// `chidian generate DIR`: synthetic seed data for load tests and demos; needs no database.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic seed directory (userInfo.json, store.json, comment.json) for `chidian seed`.",
        discussion: """
            The same arguments always give the same bytes. Every generated account's password is \
            "\(Generator.password)"; user u000001 is the admin "admin".
            """)

    @Argument(help: "The directory to write; created if missing, refused unless empty.") var directory: String
    @Option(help: "How many stores.") var stores: Int
    @Option(help: "How many users (one admin, about 5% managers, the rest reviewers).") var users: Int
    @Option(help: "How many comments (about 3% notices by the store's manager, the rest reviews).") var comments: Int
    @Option(help: "The random seed.") var seed: UInt64 = Generator.defaultSeed

    func run() throws {
        let started = ContinuousClock.now
        // As `seed` does: a bar on a terminal, a line every 15 seconds in a log; the result is one line on stdout.
        let reporter = ProgressReporter(label: "generate")
        let summary: Generator.Summary
        do {
            summary = try Generator.write(
                to: URL(fileURLWithPath: directory), stores: stores, users: users, comments: comments, seed: seed,
                progress: { reporter.update(phase: $0.file, done: $0.done, total: $0.total, rows: $0.done) })
        } catch {
            // A GeneratorError's description is the one line ArgumentParser prints after "Error: ".
            reporter.finish()
            throw error
        }
        reporter.finish()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(summary.bytes) / 1_048_576
        let line =
            "generated \(summary.users) users (\(summary.managers) managers), \(summary.stores) stores, "
            + "\(summary.reviews) reviews and \(summary.notices) notices in \(directory) "
            + "(\(String(format: "%.1f", megabytes)) MB, \(String(format: "%.1f", seconds)) s)"
        print(line)
    }
}
