import ChidianCore
import Foundation

/// Issue #46's targets for a few policies, without the grid (`chidian eval-recommender --targets`): the first
/// session, the twelve sessions under every model (÷ cold start, barely liked leads, new favourite leads,
/// exploring ÷ none) and, with `longRun`, the long run under every model.
extension RecommenderEval {
    public struct Targets: Sendable {
        public var policy: Policy
        public var first: FirstSession
        /// Per model: the twelve sessions, and the same policy's with no exploring places.
        public var sessions: [(model: ClickModel, own: Sessions, quiet: Sessions)]
        /// Per model: CTR@10 fixed and drifting, and the same without exploring places.
        public var longRun:
            [(model: ClickModel, fixed: Outcome, drift: Outcome, quietFixed: Outcome, quietDrift: Outcome)]
    }

    public func targets(_ policy: Policy, longRun: Bool) -> Targets {
        var quiet = policy
        quiet.explorePlaces = 0
        return Targets(
            policy: policy, first: firstSession(policy),
            sessions: ClickModel.allCases.map { ($0, sessions(policy, model: $0), sessions(quiet, model: $0)) },
            longRun: !longRun
                ? []
                : ClickModel.allCases.map {
                    (
                        $0, simulate(policy, drift: false, model: $0), simulate(policy, drift: true, model: $0),
                        simulate(quiet, drift: false, model: $0), simulate(quiet, drift: true, model: $0)
                    )
                })
    }

    /// The targets' table for `policies`, beside the feed before #46 and cold start.
    public func targetsReport(_ policies: [Policy], longRun: Bool) -> String {
        let models = ClickModel.allCases
        let cold = models.map { sessions(.coldOnly, model: $0) }
        let before = models.map { sessions(.leader, model: $0) }
        let coldLong =
            longRun
            ? models.map { (simulate(.coldOnly, drift: false, model: $0), simulate(.coldOnly, drift: true, model: $0)) }
            : []
        var header = "| policy | first session: categories / keeps 5 / stray leads | 12 sessions ×cold start m1/m2/m3 "
        header += "| barely liked leads m1/m2/m3 | new favourite leads m1/m2/m3 | exploring ÷ none m1/m2/m3 |"
        var rule = "|---|---|---|---|---|---|"
        if longRun {
            header += " long run ×cold start fixed, drift m1/m2/m3 | long run exploring ÷ none fixed, drift m1/m2/m3 |"
            rule += "---|---|"
        }
        let ratios: [String] = models.indices.map { Self.f(before[$0].clicks / cold[$0].clicks, 2) }
        var old = "| before #46 | – | " + ratios.joined(separator: " / ")
        old += " | " + before.map { Self.f(100 * $0.barelyLiked, 1) }.joined(separator: " / ") + " % | "
        old += before.map { Self.f(100 * $0.followed, 0) }.joined(separator: " / ") + " % | – |"
        if longRun { old += " – | – |" }
        var lines = [header, rule, old]
        for policy in policies {
            let t = targets(policy, longRun: longRun)
            var line = "| \(policy) | \(Self.f(t.first.categories, 2)) / \(Self.f(100 * t.first.keepsFive, 0)) % / "
            line += "\(Self.f(100 * t.first.strayLeads, 0)) % | "
            line += t.sessions.indices.map { Self.f(t.sessions[$0].own.clicks / cold[$0].clicks, 2) }.joined(
                separator: " / ")
            line += " | " + t.sessions.map { Self.f(100 * $0.own.barelyLiked, 1) }.joined(separator: " / ") + " % | "
            line += t.sessions.map { Self.f(100 * $0.own.followed, 0) }.joined(separator: " / ") + " % | "
            line += t.sessions.map { Self.f($0.own.clicks / $0.quiet.clicks, 2) }.joined(separator: " / ") + " |"
            if longRun {
                line +=
                    " "
                    + t.longRun.indices.map {
                        Self.f(t.longRun[$0].fixed.ctr / coldLong[$0].0.ctr, 2) + ", "
                            + Self.f(t.longRun[$0].drift.ctr / coldLong[$0].1.ctr, 2)
                    }.joined(separator: " / ") + " | "
                line +=
                    t.longRun.map {
                        Self.f($0.fixed.ctr / $0.quietFixed.ctr, 2) + ", " + Self.f($0.drift.ctr / $0.quietDrift.ctr, 2)
                    }.joined(separator: " / ") + " |"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension RecommenderEval {
    /// The shipped policy, the rows the third and fourth rules compare (docs/RECOMMENDER.md: each inference of what
    /// was looked at × skips ×1 or ×2 × priors worth 4, 6 or 8 showings), and exploring shrunk by the evidence.
    public static var candidates: [Policy] {
        let shipped = Policy.learning(halfLifeDays: 2, explorePlaces: FeedPlanner.explorePlaces)
        let rows = RecommenderEval.Examination.allCases.dropFirst().flatMap { examination in
            [2.0, 1].flatMap { skips in
                [8.0, 6, 4].map { prior in
                    var policy = shipped
                    policy.examination = examination
                    policy.skipWeight = skips
                    policy.priorStrength = prior
                    return policy
                }
            }
        }
        // Tried after the fourth rule's run, seen on seed 1 before any rule (docs/RECOMMENDER.md): fewer
        // exploring places as the evidence for the best estimate grows.
        let shrinking = [2.0, 3, 4].map { k in
            var policy = shipped
            policy.exploringEvidence = k
            return policy
        }
        let forgetting = [true, false].flatMap { skipsOnly in
            [0.9, 0.8, 0.7, 0.5].map { g in
                var policy = shipped
                policy.lookDecay = g
                policy.lookDecaySkipsOnly = skipsOnly
                return policy
            }
        }
        let capped = [4.0, 6, 10, 15, 20, 30].flatMap { c in
            [8.0, 6, 4].map { prior in
                var policy = shipped
                policy.evidenceCap = c
                policy.priorStrength = prior
                return policy
            }
        }
        return [shipped] + rows + shrinking + forgetting + capped
    }
}
