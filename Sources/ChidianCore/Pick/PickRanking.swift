import Foundation

/// How a pick is chosen among the candidates: a score from what the recommender knows of the viewer (the
/// categories they open, their favorites), the store's rating, popularity and distance, plus Gumbel noise so that
/// stores of close scores take turns; and, on some calls, exploration: a store other than the best. A viewer who
/// always got the same store would learn nothing new.
struct PickRanking {
    /// Category id → interest weight in 0...1 (the viewer's top category is 1).
    package var interests: [String: Double]
    package var radius: Double?
    /// Categories the viewer has not shown, with their exploration counts: what the bandit explores.
    package var unshown: [Exploration.Arm] = []

    /// The share of calls that explore when two or more stores qualify.
    package static let exploration = 0.3
    /// The noise's scale: scores this close change places often.
    static let temperature = 0.35

    package func score(_ candidate: StoreCandidates.Candidate) -> Double {
        // No lookup without interests (every anonymous pick): a hundred hashed ids.
        var score = interests.isEmpty ? 0 : 2 * (interests[candidate.categoryID] ?? 0)
        if candidate.favorited { score += 1 }
        score += candidate.ratingScore - 3.5
        score += 0.2 * log1p(Double(candidate.favoriteCount))
        if let distance = candidate.distance, let radius, radius > 0 { score += 1 - min(1, distance / radius) }
        score += 0.5 * log1p(Double(candidate.covisits))
        return score
    }

    /// The chosen store first, then the alternatives (up to `count` in all, distinct), and whether the first
    /// explored. On some calls (`exploration`) the first is the best store of a category the bandit picked among
    /// those the viewer has not shown (any other store when there is no such category); the last alternative
    /// always is, when one qualifies, so a viewer always sees something beyond their habits.
    package func choose<G: RandomNumberGenerator>(
        _ candidates: [StoreCandidates.Candidate], count: Int = 3, using generator: inout G
    ) -> (ranked: [StoreCandidates.Candidate], explored: Bool) {
        // Indices are ranked, not candidates: sorting and moving copies retained two strings each time.
        let keys = candidates.map { candidate -> Double in
            let uniform = BetaSample.uniform(from: Double.ulpOfOne, using: &generator)
            return score(candidate) - Self.temperature * log(-log(uniform))
        }
        var ranked = Array(candidates.indices)
        ranked.sort { keys[$0] > keys[$1] }
        // A few arms against the candidates (most match early): cheaper than hashing every candidate's category.
        let arms = unshown.filter { arm in candidates.contains { $0.categoryID == arm.categoryID } }
        // The bandit's category, best store first; nil when every qualifying category is one the viewer knows.
        let explore = Exploration.choose(arms, count: 1, using: &generator).first
        var explored = false
        if ranked.count >= 2, BetaSample.uniform(from: 0, using: &generator) < Self.exploration {
            // Never the store already first: an exploring call answers something else (the contract's "repeated
            // calls do not always answer the same store" when every candidate shares one category).
            let index =
                explore.flatMap { category in
                    ranked.indices.dropFirst().first { candidates[ranked[$0]].categoryID == category }
                }
                ?? Int.random(in: 1..<ranked.count, using: &generator)
            ranked.insert(ranked.remove(at: index), at: 0)
            explored = true
        } else if let explore, ranked.count > count,
            !ranked.prefix(count).contains(where: { candidates[$0].categoryID == explore }),
            let index = ranked.firstIndex(where: { candidates[$0].categoryID == explore })
        {
            ranked.insert(ranked.remove(at: index), at: count - 1)
        }
        return (ranked.prefix(count).map { candidates[$0] }, explored)
    }

    /// Interest weights from the recommender's decayed scores, relative to the viewer's strongest category.
    package static func weights(_ interests: [InterestRepository.Interest]) -> [String: Double] {
        guard let top = interests.map(\.score).max(), top > 0 else { return [:] }
        return Dictionary(interests.map { ($0.categoryID, $0.score / top) }, uniquingKeysWith: max)
    }
}
