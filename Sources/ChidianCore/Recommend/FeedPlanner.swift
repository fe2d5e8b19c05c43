import Foundation

/// How the feed's first places are filled: which places explore, and cold start's order. Pure, so the server and
/// `chidian eval-recommender` run the same code. The numbers were chosen by that evaluation (docs/RECOMMENDER.md).
public enum FeedPlanner {
    /// How many of a first page's places may go to a category other than the best estimate (`mixed`) by default:
    /// chosen by `chidian eval-recommender` (docs/RECOMMENDER.md); `FEED_EXPLORE_PLACES` sets it, 0 to 10.
    public static let explorePlaces = 10
    public static let maxExplorePlaces = 10

    /// One place of a first page: its category, and whether a sample rather than the best estimate put it there.
    public struct Place: Sendable, Equatable {
        public var category: String
        public var exploring: Bool
    }

    /// How likely a place (from 0) is looked at (position bias, 1 / log2(place + 2)): a skip there weighs this much.
    public static func examined(_ place: Int) -> Double { 1 / log2(Double(place) + 2) }

    /// Where a first page's places go once their categories are drawn (`mixed`).
    public enum Order: String, Sendable, CaseIterable {
        /// Every place by the sample that won it: an exploring category sampled high sits near the top.
        case bySample = "by sample"
        /// The best estimate's places first, then the exploring ones by the sample that won them: the top, where a
        /// cascading reader looks most, holds what the evidence says they like best.
        case bestFirst = "best first"
    }

    /// How a first page's places are ordered by default: chosen by `chidian eval-recommender` (docs/RECOMMENDER.md).
    public static let order = Order.bestFirst

    /// A first page's categories by the evidence (issue #46). Each place goes to the category with the highest
    /// sampled click-through (Thompson sampling over `Affinity`): while evidence is thin the samples spread the page
    /// over many categories, as cold start does; strong evidence wins nearly every place. At most `exploring` places
    /// go to a category other than the best estimate, the rest to that one. Places are then ordered by `order`
    /// (by what won them, or the best estimate's first); except that the top place goes to `top`, the viewer's
    /// leading interest (the contract's first category; without one, the best estimate): one of its places moves
    /// up, or it takes the last place's, so it gains no place by it.
    public static func mixed<G: RandomNumberGenerator>(
        _ affinities: [Affinity], exploring: Int, top: String? = nil, count: Int = coldPlaces, order: Order = order,
        using generator: inout G
    ) -> [Place] {
        guard let best = affinities.max(by: { ($0.mean, $1.categoryID) < ($1.mean, $0.categoryID) }), count > 0
        else { return [] }
        var budget = exploring
        var won: [(place: Place, score: Double, index: Int)] = []
        for index in 0..<count {
            guard budget > 0 else {
                won.append((Place(category: best.categoryID, exploring: false), best.mean, index))
                continue
            }
            var winner = (id: best.categoryID, sample: -1.0)
            for affinity in affinities {
                let sample = affinity.sample(using: &generator)
                if (sample, winner.id) > (winner.sample, affinity.categoryID) { winner = (affinity.categoryID, sample) }
            }
            let explores = winner.id != best.categoryID
            if explores { budget -= 1 }
            won.append((Place(category: winner.id, exploring: explores), winner.sample, index))
        }
        // Samples and means lie in [0, 1]: the best estimate's places rank above every other when they go first.
        let rank = { (entry: (place: Place, score: Double, index: Int)) -> Double in
            order == .bestFirst && entry.place.category == best.categoryID ? entry.score + 2 : entry.score
        }
        var places = won.sorted { (rank($0), $1.index) > (rank($1), $0.index) }.map(\.place)
        let lead = top ?? best.categoryID
        if let own = places.firstIndex(where: { $0.category == lead }) {
            places.insert(places.remove(at: own), at: 0)
        } else {
            places.removeLast()
            places.insert(Place(category: lead, exploring: false), at: 0)
        }
        places[0].exploring = false
        return places
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
        coldStartOrder(reviews, categoryWeights: categoryWeights, radius: radius, count: count).map { reviews[$0].id }
    }

    /// `coldStart` as indices into `reviews`: every anonymous first page runs it, so it ranks integers, not reviews.
    /// Only a category's best `perCategoryCap` can take a place while other categories have reviews: when those are
    /// enough, they alone are ranked across categories.
    package static func coldStartOrder(
        _ reviews: [FeedCandidates.Review], categoryWeights: [String: Double], radius: Double?,
        count: Int = coldPlaces
    ) -> [Int] {
        let pool = FeedCandidates.Pool(reviews, categoryWeights: categoryWeights, radius: radius)
        let heads = pool.heads(perCategoryCap)
        guard heads.count >= count else {
            return diverse(pool.ranked(), category: { reviews[$0].categoryID }, id: { $0 }, count: count)
        }
        return Array(heads.sorted(by: pool.ranksBefore).prefix(count))
    }

    /// Each review's worth, its category's weight looked up once for each run of a category.
    static func worths(
        _ reviews: [FeedCandidates.Review], categoryWeights: [String: Double], radius: Double?
    ) -> [Double] {
        var last: (category: String, weight: Double)? = nil
        return reviews.map { review in
            if last?.category != review.categoryID {
                last = (review.categoryID, categoryWeights[review.categoryID] ?? 0)
            }
            return worth(review, categoryWeight: last?.weight ?? 0, radius: radius)
        }
    }

    /// The first `count` of `ranked` taking at most `perCategoryCap` of a category, then, when the cap leaves
    /// places empty, the best of what it held back.
    static func diverse<T, ID>(_ ranked: [T], category: (T) -> String, id: (T) -> ID, count: Int) -> [ID] {
        var chosen: [ID] = []
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
