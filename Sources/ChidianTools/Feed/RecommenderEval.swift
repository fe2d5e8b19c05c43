import ChidianCore
import Foundation

/// An offline simulation of the featured feed (`chidian eval-recommender`), run with the product's own pieces: the
/// signal weights (`InterestSignal`), the evidence (`Affinity`), the page's mix (`FeedPlanner.mixed`), cold start
/// and, for the feed before issue #46, the bandit's fixed places (`Exploration.allocate`).
///
/// Viewers have latent category preferences (a favourite liked with probability 0.5, a runner-up 0.2, the rest
/// 0.03; favourites uniform over 14 categories whose review volumes follow 1/rank). The long run has three sessions
/// a day: the viewer reads the feed's top 10 by the click model, then opens one review found elsewhere (search,
/// store pages), chosen by what they know they like. A click may come with a like (0.3) and, in the favourite, a
/// favorite (0.1); once in a while (0.15 a day) the viewer reviews a store: five stars in the favourite, four in
/// the runner-up, two elsewhere. Under drift, each week every viewer's favourite moves with probability one half
/// (the old favourite becomes the runner-up). Policies see the same viewers; only the ranking (and the clicks)
/// differs. Time is the simulation's own clock: decay and the day within which an open counts as a showing's click
/// are reckoned in hours, so half-lives are compared on days.
public struct RecommenderEval: Sendable {
    public var viewers = 400
    public var days = 70
    public var categories = 14
    public var sessionsPerDay = 3
    /// Hours between the sessions of the twelve-session scenario (a viewer who comes daily: 24).
    public var sessionHours = 24.0
    public var seed: UInt64 = 1

    public init() {}

    public struct Outcome: Sendable, Equatable {
        /// Clicks / impressions in the top 10, every session.
        public var ctr: Double
        /// The same over the viewers' first day (they arrive with no history).
        public var firstDayCTR: Double
        /// Share of taste changes whose new favourite led the feed within 7 days (drift only; else 0).
        public var surfaced: Double
        /// Distinct categories in a top 10, on average.
        public var diversity: Double
        /// Share of the top 10's places whose category stays the same after one stray open (of a category the
        /// viewer barely likes), at mid-run.
        public var stability: Double
    }

    /// Preferences: a favourite, a runner-up and a low floor.
    func preferences(favorite: Int, second: Int) -> [Double] {
        (0..<categories).map { $0 == favorite ? 0.5 : $0 == second ? 0.2 : 0.03 }
    }

    /// Review volume per category (a few big categories, a long tail), which is what newest-first shows.
    var volume: [Double] {
        let raw = (0..<categories).map { 1 / Double($0 + 1) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    /// The category that leads a top 10: more places than any other, and more than cold start gives one (3).
    static func lead<C: Hashable>(_ places: [C]) -> C? {
        var counts: [C: Int] = [:]
        for category in places { counts[category, default: 0] += 1 }
        let ranked = counts.sorted { $0.value > $1.value }
        guard let top = ranked.first, top.value > FeedPlanner.perCategoryCap,
            ranked.count == 1 || ranked[1].value < top.value
        else { return nil }
        return top.key
    }

    public func simulate(_ policy: Policy, drift: Bool, model: ClickModel) -> Outcome {
        // The same viewers and world events for every policy: only the ranking differs.
        var run = Run(eval: self, policy: policy, model: model, stream: drift ? 2 : 1)
        var favorites = (0..<viewers).map { _ in run.world.below(categories) }
        var seconds = favorites.map { favorite in (favorite + 1 + run.world.below(categories - 1)) % categories }
        // What each viewer knows they like, which is what they look for outside the feed: a new favourite is
        // known once they click it in the feed.
        var known = zip(favorites, seconds).map { (favorite: $0, second: $1) }
        var (clicks, impressions, firstClicks, firstImpressions) = (0, 0, 0, 0)
        var (distinct, lists) = (0, 0)
        // Per viewer, the latest taste change not yet surfaced: when, the new favourite, and whether a full week of
        // the run followed it (only those count).
        var change: [(session: Int, favorite: Int, counted: Bool)?] = Array(repeating: nil, count: viewers)
        var (surfaced, eligible) = (0, 0)
        var stability = 0.0
        let gap = 24 / Double(sessionsPerDay)
        let scale = policy.signals ? policy.signalScale : 0
        let midpoint = days / 2 * sessionsPerDay

        for day in 0..<days {
            if drift, day > 0, day % 7 == 0 {
                for viewer in 0..<viewers where run.world.chance(0.5) {
                    seconds[viewer] = favorites[viewer]
                    favorites[viewer] = (favorites[viewer] + 1 + run.world.below(categories - 1)) % categories
                    let counted = day + 7 <= days
                    if counted { eligible += 1 }
                    change[viewer] = (day * sessionsPerDay, favorites[viewer], counted)
                }
            }
            for part in 0..<sessionsPerDay {
                let session = day * sessionsPerDay + part
                let hour = Double(session) * gap
                for viewer in 0..<viewers {
                    let likes = preferences(favorite: favorites[viewer], second: seconds[viewer])
                    run.age(viewer, hours: gap)
                    if session == midpoint, policy.halfLifeDays != nil {
                        stability += run.stability(viewer, likes: likes)
                    }
                    let places = run.page(viewer, at: hour)
                    distinct += Set(places).count
                    lists += 1
                    if let latest = change[viewer], session - latest.session < 7 * sessionsPerDay,
                        Self.lead(places) == latest.favorite
                    {
                        change[viewer] = nil
                        if latest.counted { surfaced += 1 }
                    }
                    impressions += places.count
                    if day == 0 { firstImpressions += places.count }
                    let read = model.read(places, likes: likes, using: &run.clicksRNG)
                    run.read(viewer, places, clicked: read)
                    for place in read {
                        let category = places[place]
                        clicks += 1
                        if day == 0 { firstClicks += 1 }
                        if category == favorites[viewer] { known[viewer] = (favorites[viewer], seconds[viewer]) }
                        run.opened(viewer, category, at: hour)
                        if run.clicksRNG.chance(0.3) {
                            run.add(viewer, category, scale * InterestSignal.liked.baseWeight)
                        }
                        if category == favorites[viewer], run.clicksRNG.chance(0.1) {
                            run.add(viewer, category, scale * InterestSignal.favorited.baseWeight)
                        }
                    }
                    // An open found elsewhere: the viewer goes looking for what they know they like.
                    let browsed = Self.draw(
                        preferences(favorite: known[viewer].favorite, second: known[viewer].second), &run.clicksRNG)
                    if browsed == favorites[viewer] { known[viewer] = (favorites[viewer], seconds[viewer]) }
                    run.opened(viewer, browsed, at: hour)
                    if part == 0, run.clicksRNG.chance(0.15) {
                        let reviewed = Self.draw(
                            preferences(favorite: known[viewer].favorite, second: known[viewer].second),
                            &run.clicksRNG)
                        let stars = reviewed == favorites[viewer] ? 5 : reviewed == seconds[viewer] ? 4 : 2
                        run.add(viewer, reviewed, scale * InterestSignal.reviewed(rating: stars).baseWeight)
                    }
                }
            }
        }
        return Outcome(
            ctr: Double(clicks) / Double(max(impressions, 1)),
            firstDayCTR: Double(firstClicks) / Double(max(firstImpressions, 1)),
            surfaced: eligible > 0 ? Double(surfaced) / Double(eligible) : 0,
            diversity: Double(distinct) / Double(max(lists, 1)),
            stability: policy.halfLifeDays == nil ? 1 : stability / Double(viewers))
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
}
