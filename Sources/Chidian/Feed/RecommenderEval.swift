import Foundation

/// An offline simulation of the featured feed's recommender (`chidian eval-recommender`).
///
/// Viewers have latent category preferences. Each simulated day a viewer opens the feed once and sees its top 10
/// reviews, clicking each with the probability their preference gives its category; they also open a few
/// reviews they find elsewhere (search, store pages), chosen by the same preferences. Every open is a click for
/// the recommender, as in the product. Under drift, each week a viewer's favourite category moves with
/// probability one half. The feed ranks categories like the product does (the top category fills the top 10).
public struct RecommenderEval: Sendable {
    public var viewers = 400
    public var days = 70
    public var categories = 14
    public var browsesPerDay = 3
    public var seed: UInt64 = 1
    public var halfLivesInDays: [Double] = [1, 3, 7, 14, 30]

    public init() {}

    public enum Policy: Hashable, Sendable, CustomStringConvertible {
        case newest, popularity, rawCounts, decayed(halfLifeDays: Double)

        public var description: String {
            switch self {
            case .newest: return "newest first"
            case .popularity: return "global popularity"
            case .rawCounts: return "raw counts (original)"
            case .decayed(let days): return "decayed, half-life \(days.formatted()) d"
            }
        }
    }

    public var policies: [Policy] {
        [.newest, .popularity, .rawCounts] + halfLivesInDays.map { .decayed(halfLifeDays: $0) }
    }

    /// Click-through in the top 10 (clicks / impressions) per policy, for fixed or drifting tastes.
    public func run(drift: Bool) -> [Policy: Double] {
        var results: [Policy: Double] = [:]
        for policy in policies { results[policy] = simulate(policy: policy, drift: drift) }
        return results
    }

    /// How much a viewer likes each category: a favourite, a runner-up and a low floor.
    func preferences(favorite: Int, second: Int) -> [Double] {
        (0..<categories).map { $0 == favorite ? 0.5 : $0 == second ? 0.2 : 0.03 }
    }

    /// Review volume per category (a few big categories, a long tail), which is what newest-first shows.
    var volume: [Double] {
        let raw = (0..<categories).map { 1 / Double($0 + 1) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    func simulate(policy: Policy, drift: Bool) -> Double {
        // The same viewers and the same events for every policy: only the ranking differs.
        var world = SeededRandom(seed: seed, stream: drift ? 2 : 1)
        var rng = SeededRandom(seed: seed, stream: 99)
        let volume = self.volume
        var favorites = (0..<viewers).map { _ in world.below(categories) }
        var seconds = favorites.map { favorite in (favorite + 1 + world.below(categories - 1)) % categories }
        var scores = Array(repeating: Array(repeating: 0.0, count: categories), count: viewers)
        var globalClicks = Array(repeating: 0.0, count: categories)
        var clicks = 0
        var impressions = 0
        let decayPerDay: Double
        if case .decayed(let days) = policy { decayPerDay = pow(0.5, 1 / days) } else { decayPerDay = 1 }
        for day in 0..<days {
            if drift, day > 0, day % 7 == 0 {
                for viewer in 0..<viewers where world.chance(0.5) {
                    seconds[viewer] = favorites[viewer]
                    favorites[viewer] = (favorites[viewer] + 1 + world.below(categories - 1)) % categories
                }
            }
            for viewer in 0..<viewers {
                let likes = preferences(favorite: favorites[viewer], second: seconds[viewer])
                if decayPerDay < 1 { scores[viewer] = scores[viewer].map { $0 * decayPerDay } }
                // The feed's top 10.
                let ranked: Int?
                switch policy {
                case .newest: ranked = nil
                case .popularity: ranked = Self.top(globalClicks)
                case .rawCounts, .decayed: ranked = Self.top(scores[viewer])
                }
                var opened: [Int] = []
                for _ in 0..<10 {
                    let category = ranked ?? Self.draw(volume, &rng)
                    impressions += 1
                    if rng.chance(likes[category]) {
                        clicks += 1
                        opened.append(category)
                    }
                }
                // Opens found elsewhere: the viewer goes looking for what they like.
                for _ in 0..<browsesPerDay { opened.append(Self.draw(likes, &rng)) }
                for category in opened {
                    scores[viewer][category] += 1
                    globalClicks[category] += 1
                }
            }
        }
        return Double(clicks) / Double(max(impressions, 1))
    }

    /// The highest-scoring category, ties to the lower index; nil when nothing was clicked.
    static func top(_ scores: [Double]) -> Int? {
        var best: Int? = nil
        for (index, score) in scores.enumerated() where score > 0 && (best == nil || score > scores[best!]) {
            best = index
        }
        return best
    }

    static func draw(_ weights: [Double], _ rng: inout SeededRandom) -> Int {
        let total = weights.reduce(0, +)
        var point = rng.unit() * total
        for (index, weight) in weights.enumerated() {
            point -= weight
            if point < 0 { return index }
        }
        return weights.count - 1
    }

    /// The results as the Markdown table of docs/RECOMMENDER.md.
    public func markdown() -> String {
        let fixed = run(drift: false)
        let drifting = run(drift: true)
        var lines = [
            "| policy | CTR@10, fixed tastes | CTR@10, drifting tastes |",
            "|---|---|---|",
        ]
        for policy in policies {
            lines.append(
                "| \(policy) | \(String(format: "%.4f", fixed[policy] ?? 0)) | \(String(format: "%.4f", drifting[policy] ?? 0)) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
