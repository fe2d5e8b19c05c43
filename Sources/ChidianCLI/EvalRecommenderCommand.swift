import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct EvalRecommenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-recommender",
        abstract: "Simulate viewers, compare recommender policies under three click models and choose the defaults.",
        discussion: "Prints the Markdown tables kept in docs/RECOMMENDER.md. Deterministic for a given --seed.")

    @Option(help: "Simulated viewers.") var viewers = 400
    @Option(help: "Simulated days.") var days = 70
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Hours between the twelve-session scenario's sessions (the simulation's own clock).")
    var sessionHours = 24.0
    @Flag(help: "Only issue #46's targets, for the shipped policy and the candidates of the third rule.")
    var targets = false
    @Flag(help: "With --targets, the long run too (under every model; slower).") var longRun = false
    @Option(help: "With --targets, only the candidates whose description contains this (the shipped policy always).")
    var matching: String?

    func run() async throws {
        var eval = RecommenderEval()
        eval.viewers = viewers
        eval.days = days
        eval.seed = seed
        eval.sessionHours = sessionHours
        if targets {
            let all = RecommenderEval.candidates
            let chosen = all.enumerated().filter {
                $0.offset == 0 || matching.map($0.element.description.contains) ?? true
            }
            print(eval.targetsReport(chosen.map(\.element), longRun: longRun))
        } else {
            print(eval.report().markdown)
        }
    }
}
