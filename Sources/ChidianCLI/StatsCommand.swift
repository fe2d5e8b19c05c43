import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract:
            "Counts, the top stores by rating score and by ad spend, and the platform's days (as GET /v1/admin/stats).")

    @Option(help: "How many top stores to list.") var top = 5
    @Option(help: "First day (YYYY-MM-DD, Asia/Shanghai); default 29 days before --to.") var from: String?
    @Option(help: "Last day (YYYY-MM-DD); default today.") var to: String?

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        let range: InsightRange
        do {
            range = try InsightRange(
                from: from, to: to, timeZone: TimeZone(identifier: PlatformStats.timeZone)!, now: Date())
        } catch {
            throw ValidationError("--from and --to must be dates (YYYY-MM-DD), from not after to, at most 366 days")
        }
        let (stats, days) = try await withDatabase(config, logger: logger) {
            (try await Stats.load($0, top: max(1, min(top, 100))), try await PlatformStats.load($0, range: range))
        }
        print(stats)
        print(days.table(from: range.from, to: range.to))
    }
}
