import ChidianCore
import Foundation

extension TrustEval {
    /// Seeds 1–3: every setting of the grid on a world with attack kinds 1–4.
    public func choosing(seed: UInt64, on database: Database, start: Date) async throws -> [Outcome] {
        let world = TrustWorld(
            seed: seed, kinds: [.ring, .bombing, .slowRing, .copiedText], perKind: perKind,
            organicUsers: organicUsers, start: start)
        try await write(world, into: database)
        var outcomes: [Outcome] = []
        for threshold in thresholds {
            for group in groupWeights {
                var weights = TrustJudge.Weights()
                weights.threshold = threshold
                weights.group = group
                outcomes.append(try await judge(world, weights: weights, on: database))
            }
        }
        return outcomes
    }

    /// Seed 4, once, with the chosen setting: every kind, the held-out one included, and the careful rings added
    /// after the rule chose.
    package func heldOut(weights: TrustJudge.Weights, on database: Database, start: Date) async throws -> Outcome {
        let world = TrustWorld(
            seed: heldOutSeed, kinds: TrustWorld.Kind.allCases, perKind: perKind, organicUsers: organicUsers,
            start: start)
        try await write(world, into: database)
        return try await judge(world, weights: weights, on: database)
    }

    /// The rule (docs/TRUST.md, written before kind 5 ran): among settings keeping organic reviews ≥ 99.5 % and
    /// newcomers' first reviews ≥ 98.5 % recommended on every choosing seed, the smallest worst-case shift over
    /// kinds 1–4; ties to the higher threshold, then the smaller group raise. `bySeed[s][i]` is setting i on seed s.
    public static func choose(_ bySeed: [[Outcome]]) -> Int? {
        let settings = bySeed.first?.indices ?? 0..<0
        func allowed(_ i: Int) -> Bool {
            bySeed.allSatisfy { $0[i].organicShare >= 0.995 && $0[i].firstsShare >= 0.985 }
        }
        func worst(_ i: Int) -> Double { bySeed.map { o in (1...4).map { o[i].worst($0) }.max()! }.max()! }
        return settings.filter(allowed).min { a, b in
            let (wa, wb) = (worst(a), worst(b))
            if abs(wa - wb) > 1e-9 { return wa < wb }
            let (x, y) = (bySeed[0][a].weights, bySeed[0][b].weights)
            // Ties: the higher threshold, then the smaller group raise (both judge fewer honest reviews).
            return x.threshold != y.threshold ? x.threshold > y.threshold : x.group < y.group
        }
    }

    /// docs/TRUST.md's tables.
    public static func markdown(bySeed: [[Outcome]], chosen: Int?, heldOut: Outcome?) -> String {
        var lines: [String] = []
        func pct(_ x: Double) -> String { String(format: "%.1f %%", x * 100) }
        func stars(_ x: Double) -> String { String(format: "%.2f", x) }
        lines.append(
            "Settings on seeds 1–3 (kinds 1–4): organic and newcomers' first reviews recommended (lowest seed), worst shift over kinds 1–4 (stars)."
        )
        lines.append("")
        lines.append("| threshold | group | organic | first reviews | worst shift | allowed |")
        lines.append("|---|---|---|---|---|---|")
        for i in bySeed.first?.indices ?? 0..<0 {
            let o = bySeed.map { $0[i] }
            let organic = o.map(\.organicShare).min()!, firsts = o.map(\.firstsShare).min()!
            let worst = o.map { x in (1...4).map { x.worst($0) }.max()! }.max()!
            let mark = i == chosen ? " **chosen**" : ""
            lines.append(
                "| \(o[0].weights.threshold) | \(o[0].weights.group) | \(pct(organic)) | \(pct(firsts)) | \(stars(worst)) | "
                    + "\(organic >= 0.995 && firsts >= 0.985 ? "yes" : "no")\(mark) |")
        }
        func kindTable(_ title: String, _ outcomes: [Outcome]) {
            lines.append("")
            lines.append(title)
            lines.append("")
            lines.append(
                "| attack | shift without verdicts (mean / max) | with verdicts (mean / max) | attack reviews recommended |"
            )
            lines.append("|---|---|---|---|")
            for kind in TrustWorld.Kind.allCases {
                let shifts = outcomes.flatMap { $0.shifts[kind.rawValue] ?? [] }
                guard !shifts.isEmpty else { continue }
                let without = shifts.map(\.without), with = shifts.map(\.with)
                let total = outcomes.map { $0.attackReviews[kind.rawValue]?.total ?? 0 }.reduce(0, +)
                let kept = outcomes.map { $0.attackReviews[kind.rawValue]?.recommended ?? 0 }.reduce(0, +)
                func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }
                lines.append(
                    "| \(kind.rawValue). \(kind.name) | \(stars(mean(without))) / \(stars(without.max()!)) | "
                        + "\(stars(mean(with))) / \(stars(with.max()!)) | \(kept) of \(total) |")
            }
            let organic = outcomes.map(\.organic).reduce(0, +), kept = outcomes.map(\.organicRecommended).reduce(0, +)
            let firsts = outcomes.map(\.firsts).reduce(0, +),
                keptFirsts = outcomes.map(\.firstsRecommended).reduce(0, +)
            lines.append("")
            lines.append(
                "Organic reviews recommended: \(kept) of \(organic) (\(pct(Double(kept) / Double(max(organic, 1)))));"
                    + " newcomers' first reviews: \(keptFirsts) of \(firsts) (\(pct(Double(keptFirsts) / Double(max(firsts, 1)))))."
            )
        }
        if let chosen {
            kindTable("The chosen setting on seeds 1–3:", bySeed.map { $0[chosen] })
        }
        if let heldOut {
            kindTable("Seed 4, run once with the chosen setting, every kind (kind 5 held out until now):", [heldOut])
        }
        return lines.joined(separator: "\n")
    }
}
