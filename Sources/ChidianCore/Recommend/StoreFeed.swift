import Foundation
import PostgresNIO

/// 猜你喜欢 (`GET /v1/feed/stores`): stores for this viewer, ranked among `StoreCandidates.forYou`'s: stores that
/// viewers of the viewer's recent and favorite stores also opened, the best-rated stores of the viewer's top
/// categories and the best-rated stores overall, or with `near`, the nearest stores in the radius. Ranking is
/// `StoreFeed.rank`, pure, so the evaluation runs it too.
package enum StoreFeed {
    /// Candidates: the top categories' and everyone's best, or the nearest. The pool is about 200 stores: the
    /// statement's cost is linear in it (700 stores took 7.8 ms at 1M reviews, 200 about 2).
    package static let categories = 3
    package static let perCategory = 12
    package static let best = 30
    package static let nearest = 100

    package typealias Candidate = StoreCandidates.Candidate

    /// A candidate's worth: the viewer's interest in its category (relative to their strongest), how many viewers
    /// it shares with the viewer's stores (relative to the most shared), rating, popularity and nearness.
    package static func worth(_ candidate: Candidate, interests: [String: Double], maxCovisits: Int, radius: Double?)
        -> Double
    {
        worth(candidate, interest: interests[candidate.categoryID] ?? 0, maxCovisits: maxCovisits, radius: radius)
    }

    /// `worth` with the candidate's category's interest looked up already.
    static func worth(_ candidate: Candidate, interest: Double, maxCovisits: Int, radius: Double?) -> Double {
        var worth = 2 * interest
        if maxCovisits > 0 { worth += 1.5 * Double(candidate.covisits) / Double(maxCovisits) }
        worth += candidate.ratingScore - 3.5
        worth += 0.2 * log1p(Double(candidate.favoriteCount))
        if let distance = candidate.distance, let radius, radius > 0 { worth += 1 - min(1, distance / radius) }
        return worth
    }

    /// The viewer's list: known stores left out, by worth, at most three of a category among the first ten.
    package static func rank(_ candidates: [Candidate], interests: [String: Double], radius: Double?, limit: Int)
        -> [String]
    {
        // Indices throughout, not candidates: moving a candidate moves its strings (a fifth of a signed-in 猜你喜欢).
        let fresh = candidates.indices.filter { !candidates[$0].known }
        let most = fresh.lazy.map { candidates[$0].covisits }.max() ?? 0
        var worths = [Double](repeating: 0, count: candidates.count)
        // Candidates come in runs of a category (each list's): its interest is looked up once a run, not hashed
        // for every candidate.
        var run: (category: String, interest: Double)?
        for index in fresh {
            let category = candidates[index].categoryID
            if run?.category != category { run = (category, interests[category] ?? 0) }
            worths[index] = worth(candidates[index], interest: run!.interest, maxCovisits: most, radius: radius)
        }
        let ranked = fresh.sorted { a, b in
            worths[a] != worths[b] ? worths[a] > worths[b] : candidates[a].id > candidates[b].id
        }
        let head = FeedPlanner.diverse(
            ranked, category: { candidates[$0].categoryID }, id: { candidates[$0].id },
            count: min(limit, FeedPlanner.coldPlaces))
        let chosen = Set(head)
        return head
            + ranked.lazy.map { candidates[$0].id }.filter { !chosen.contains($0) }.prefix(max(0, limit - head.count))
    }
}
