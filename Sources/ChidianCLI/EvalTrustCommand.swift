import ArgumentParser
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation
import PostgresNIO

struct EvalTrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-trust",
        abstract:
            "Judge simulated organic reviewers and review rings with the product's trust judge; choose thresholds.",
        discussion: """
            Creates (and drops) a scratch database beside DATABASE_URL's for each seed, writes the population, judges it \
            with the product's own TrustService and prints the Markdown tables kept in docs/TRUST.md.
            """)

    @Option(help: "Organic users per world.") var organicUsers = 600
    @Option(help: "Target stores per attack kind.") var perKind = 3
    @Option(help: "The scratch database's name.") var scratch = "chidian_trust_eval"

    func validate() throws {
        // A database name cannot be a bind parameter: only a plain identifier is accepted.
        guard scratch.range(of: "^[a-z_][a-z0-9_]{0,62}$", options: .regularExpression) != nil else {
            throw ValidationError("--scratch must be a lower-case identifier")
        }
    }

    func run() async throws {
        let (config, _) = try CLI.setUp()
        let logger = CLI.quietLogger(config)
        var eval = TrustEval()
        eval.organicUsers = organicUsers
        eval.perKind = perKind
        // The same 90 days for every seed, ending yesterday.
        let start = Date().addingTimeInterval(-90 * 86400)
        func fresh<T>(_ body: (Database) async throws -> T) async throws -> T {
            try await withDatabase(config, logger: logger) { server in
                try await server.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(scratch)\""))
                try await server.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(scratch)\""))
            }
            let url = try DatabaseURL(config.databaseURL)
            var scratchConfig = config
            var text = "postgres://\(url.user)\(url.password.map { ":\($0)" } ?? "")@\(url.host):\(url.port)/\(scratch)"
            if let socket = url.socketDirectory { text += "?host=\(socket)" }
            scratchConfig.databaseURL = text
            let result = try await withDatabase(scratchConfig, logger: logger) { database in
                _ = try await database.with(timeout: .seconds(60)).withConnection { connection in
                    try await Migrator(logger: logger).migrate(on: connection)
                }
                return try await body(database)
            }
            _ = try await withDatabase(config, logger: logger) { server in
                try await server.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(scratch)\""))
            }
            return result
        }
        var bySeed: [[TrustEval.Outcome]] = []
        for seed in eval.choosingSeeds {
            FileHandle.standardError.write(
                Data("eval-trust: seed \(seed), \(eval.thresholds.count * eval.groupWeights.count) settings\n".utf8))
            bySeed.append(try await fresh { try await eval.choosing(seed: seed, on: $0, start: start) })
        }
        let chosen = TrustEval.choose(bySeed)
        var heldOut: TrustEval.Outcome?
        if let chosen {
            FileHandle.standardError.write(Data("eval-trust: seed \(eval.heldOutSeed), held out\n".utf8))
            heldOut = try await fresh {
                try await eval.heldOut(weights: bySeed[0][chosen].weights, on: $0, start: start)
            }
        }
        print(TrustEval.markdown(bySeed: bySeed, chosen: chosen, heldOut: heldOut))
    }
}
