import Foundation

/// How the feed's first places are filled: which places explore, and cold start's order. Pure, so the server and
/// `chidian eval-recommender` run the same code. The numbers were chosen by that evaluation (docs/RECOMMENDER.md).
public enum FeedPlanner {
    /// Places (from 0) among the first ten that may go to exploration by default (the bandit decides each page):
    /// 3 of 10, as `chidian eval-recommender` chose.
    public static let explorePlaces = places(exploring: 3)
    public static let maxExplorePlaces = 3

    /// `count` places spread over the first ten, the first after four of the viewer's own.
    public static func places(exploring count: Int) -> [Int] {
        switch count {
        case ...0: return []
        case 1: return [4]
        case 2: return [4, 8]
        default: return [3, 6, 9]
        }
    }
    /// No category holds more than this many of cold start's first ten.
    public static let perCategoryCap = 3
    /// How many places cold start arranges.
    public static let coldPlaces = 10

    /// A cold-start candidate's worth: liked, well rated, its store well rated, recent, near; plus the sampled
    /// click-through of its category (popular categories first, uncertain ones tried).
    package static func worth(_ review: FeedCandidates.Review, categoryWeight: Double, radius: Double?) -> Double {
        var worth = 0.6 * log1p(Double(review.likes)) + 0.4 * Double(review.rating - 3)
        worth += 0.4 * (review.storeRating - 3.5) - review.ageDays / 14
        worth += 4 * categoryWeight
        if let distance = review.distance, let radius, radius > 0 { worth += 1 - min(1, distance / radius) }
        return worth
    }

    /// Cold start's first places: the most worthwhile reviews, at most `perCategoryCap` per category while other
    /// categories have reviews left, then the best of the rest.
    package static func coldStart(
        _ reviews: [FeedCandidates.Review], categoryWeights: [String: Double], radius: Double?,
        count: Int = coldPlaces
    ) -> [String] {
        let ranked = reviews.map {
            ($0, worth($0, categoryWeight: categoryWeights[$0.categoryID] ?? 0, radius: radius))
        }
        .sorted { ($0.1, $0.0.id) > ($1.1, $1.0.id) }.map(\.0)
        return diverse(ranked, category: \.categoryID, id: \.id, count: count)
    }

    /// The first `count` of `ranked` taking at most `perCategoryCap` of a category, then, when the cap leaves
    /// places empty, the best of what it held back.
    static func diverse<T>(_ ranked: [T], category: (T) -> String, id: (T) -> String, count: Int) -> [String] {
        var chosen: [String] = []
        var perCategory: [String: Int] = [:]
        var heldBack: [T] = []
        for item in ranked where chosen.count < count {
            let key = category(item)
            if perCategory[key, default: 0] < perCategoryCap {
                perCategory[key, default: 0] += 1
                chosen.append(id(item))
            } else {
                heldBack.append(item)
            }
        }
        for item in heldBack where chosen.count < count { chosen.append(id(item)) }
        return chosen
    }
}
