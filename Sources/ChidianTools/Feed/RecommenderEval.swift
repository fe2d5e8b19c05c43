import ChidianCore
import Foundation

/// An offline simulation of the featured feed (`chidian eval-recommender`), run with the product's own pieces: the
/// signal weights (`InterestSignal`), the bandit (`Exploration`), the exploring places and cold start
/// (`FeedPlanner`).
///
/// Viewers have latent category preferences (a favourite liked with probability 0.5, a runner-up 0.2, the rest
/// 0.03; favourites uniform over 14 categories whose review volumes follow 1/rank). Each day has three sessions: the
/// viewer sees the feed's top 10 and clicks each review with the click model's probability, then opens one review
/// found elsewhere (search, store pages), chosen by preference. A click may come with a like (0.3) and, in the
/// favourite category, a favorite (0.1); once in a while (0.15 a day) the viewer reviews a store: five stars in
/// the favourite, four in the runner-up, two elsewhere. Under drift, each week every viewer's favourite moves to
/// another category with probability one half (the old favourite becomes the runner-up). Policies see the same
/// viewers; only the ranking (and so the clicks) differs.
///
/// The feed at category level, as the product fills it: the top category's reviews fill every place except the
/// exploring ones (categories have far more than ten reviews); without interests, cold start or newest first.
public struct RecommenderEval: Sendable {
    public var viewers = 400
    public var days = 70
    public var categories = 14
    public var sessionsPerDay = 3
    public var seed: UInt64 = 1

    public init() {}

    /// How a viewer looks at a list of ten.
    public enum ClickModel: String, CaseIterable, Sendable {
        /// Every place is seen; a review is clicked with the viewer's liking of its category.
        case everyPlace = "every place seen"
        /// Lower places are seen less: the liking times 1 / log2(place + 2) (place from 0).
        case positionBias = "position bias"

        func examined(_ place: Int) -> Double {
            switch self {
            case .everyPlace: return 1
            case .positionBias: return 1 / log2(Double(place) + 2)
            }
        }
    }

    public struct Policy: Hashable, Sendable, CustomStringConvertible {
        /// nil: newest first, learning nothing.
        public var halfLifeDays: Double?
        /// Favorites, likes and the viewer's own reviews count (else opens alone).
        public var signals: Bool
        /// Multiplies every signal's weight (1: the product's).
        public var signalScale: Double
        public var explorePlaces: Int
        /// Cold start for viewers without interests (else newest first).
        public var coldStart: Bool

        public static let newest = Policy(
            halfLifeDays: nil, signals: false, signalScale: 1, explorePlaces: 0, coldStart: false)
        /// What the product shipped before issue 30: opens only, 7 days, no exploring, newest first when cold.
        public static let shipped = Policy(
            halfLifeDays: 7, signals: false, signalScale: 1, explorePlaces: 0, coldStart: false)

        public static func learning(halfLifeDays: Double, explorePlaces: Int, signalScale: Double = 1) -> Policy {
            Policy(
                halfLifeDays: halfLifeDays, signals: signalScale > 0, signalScale: signalScale,
                explorePlaces: explorePlaces, coldStart: true)
        }

        public var description: String {
            guard let halfLifeDays else { return "newest first" }
            if self == .shipped { return "shipped (opens, 7 d, no exploring)" }
            let signals = signals ? (signalScale == 1 ? "all signals" : "signals ×\(signalScale.formatted())") : "opens"
            return "\(halfLifeDays.formatted()) d, \(signals), explore \(explorePlaces)/10"
        }
    }

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

    /// One viewer's recommender state.
    struct Viewer {
        var scores: [Double]
        /// Places shown and clicks from them per category, decayed like the scores.
        var shown: [Double]
        var clicked: [Double]
        /// Session index of the last showing, per category, and whether it explored.
        var pending: [Int?]
        var exploring: [Bool]
    }

    /// Everyone's exploration counts.
    struct Global {
        var shown: [Int]
        var clicked: [Int]
    }

    func arms(_ viewer: Viewer, _ global: Global, only: [Int]) -> [Exploration.Arm] {
        only.map {
            Exploration.Arm(
                categoryID: String($0), shown: viewer.shown[$0], clicked: viewer.clicked[$0],
                globalShown: global.shown[$0], globalClicked: global.clicked[$0])
        }
    }

    /// The top 10's categories for a viewer, and which places were shown to explore (cold start's count too).
    func feed<G: RandomNumberGenerator>(
        _ policy: Policy, _ viewer: Viewer, _ global: Global, _ rng: inout G, _ world: inout SeededRandom
    ) -> (places: [Int], exploring: Set<Int>) {
        let volume = self.volume
        guard policy.halfLifeDays != nil else { return ((0..<10).map { _ in Self.draw(volume, &world) }, []) }
        let interests = (0..<categories).filter { viewer.scores[$0] > Decay.threshold }
            .sorted { (viewer.scores[$0], $1) > (viewer.scores[$1], $0) }
        guard let top = interests.first else {
            guard policy.coldStart else { return ((0..<10).map { _ in Self.draw(volume, &world) }, []) }
            // Cold start on each category's eight newest reviews; big categories have the newer ones.
            let reviews = (0..<categories).flatMap { category in
                (0..<FeedCandidates.perCategory).map { k in
                    FeedCandidates.Review(
                        id: "\(category)-\(k)", categoryID: String(category), likes: 0, rating: 4,
                        ageDays: Double(k + 1) * 0.01 / volume[category], storeRating: 4, distance: nil)
                }
            }
            let weights = Exploration.sample(arms(viewer, global, only: Array(0..<categories)), using: &rng)
            let order = FeedPlanner.coldStart(reviews, categoryWeights: weights, radius: nil)
            let places = order.map { Int($0.split(separator: "-")[0])! }
            return (places, Set(0..<places.count))
        }
        var places = Array(repeating: top, count: 10)
        let shown = Set(ViewerState.shown((0..<categories).map { (String($0), viewer.scores[$0]) }).map { Int($0)! })
        let unshown = (0..<categories).filter { !shown.contains($0) }
        let allocated = Exploration.allocate(
            own: arms(viewer, global, only: [top]).first, unshown: arms(viewer, global, only: unshown),
            places: FeedPlanner.places(exploring: policy.explorePlaces), using: &rng)
        for (place, category) in allocated { places[place] = Int(category)! }
        return (places, Set(allocated.map(\.place)))
    }

    public func simulate(_ policy: Policy, drift: Bool, model: ClickModel) -> Outcome {
        // The same viewers and world events for every policy: only the ranking differs.
        var world = SeededRandom(seed: seed, stream: drift ? 2 : 1)
        var clicksRNG = SeededRandom(seed: seed, stream: 99)
        var banditRNG = SeededRandom(seed: seed, stream: 7)
        var favorites = (0..<viewers).map { _ in world.below(categories) }
        var seconds = favorites.map { favorite in (favorite + 1 + world.below(categories - 1)) % categories }
        var state = Array(
            repeating: Viewer(
                scores: Array(repeating: 0, count: categories), shown: Array(repeating: 0, count: categories),
                clicked: Array(repeating: 0, count: categories), pending: Array(repeating: nil, count: categories),
                exploring: Array(repeating: false, count: categories)),
            count: viewers)
        // What each viewer knows they like, which is what they look for outside the feed: a new favourite is
        // known once they click it in the feed.
        var known = zip(favorites, seconds).map { (favorite: $0, second: $1) }
        var global = Global(
            shown: Array(repeating: 0, count: categories), clicked: Array(repeating: 0, count: categories))
        var (clicks, impressions, firstClicks, firstImpressions) = (0, 0, 0, 0)
        var (distinct, lists) = (0, 0)
        // Per viewer, the latest taste change not yet surfaced: when, the new favourite, and whether a full week of
        // the run followed it (only those count).
        var change: [(session: Int, favorite: Int, counted: Bool)?] = Array(repeating: nil, count: viewers)
        var (surfaced, eligible) = (0, 0)
        var stability = 0.0
        let sessionsPerHalfLife = (policy.halfLifeDays ?? 1) * Double(sessionsPerDay)
        let decay = policy.halfLifeDays == nil ? 1 : pow(0.5, 1 / sessionsPerHalfLife)
        let scale = policy.signals ? policy.signalScale : 0
        let midpoint = days / 2 * sessionsPerDay

        func add(_ viewer: Int, _ category: Int, _ weight: Double) {
            state[viewer].scores[category] = max(0, state[viewer].scores[category] + weight)
        }
        func opened(_ viewer: Int, _ category: Int, at session: Int) {
            add(viewer, category, 1)
            if let shownAt = state[viewer].pending[category], session - shownAt <= sessionsPerDay {
                state[viewer].clicked[category] = min(
                    state[viewer].shown[category], state[viewer].clicked[category] + 1)
                if state[viewer].exploring[category] { global.clicked[category] += 1 }
            }
        }

        for day in 0..<days {
            if drift, day > 0, day % 7 == 0 {
                for viewer in 0..<viewers where world.chance(0.5) {
                    seconds[viewer] = favorites[viewer]
                    favorites[viewer] = (favorites[viewer] + 1 + world.below(categories - 1)) % categories
                    let counted = day + 7 <= days
                    if counted { eligible += 1 }
                    change[viewer] = (day * sessionsPerDay, favorites[viewer], counted)
                }
            }
            for part in 0..<sessionsPerDay {
                let session = day * sessionsPerDay + part
                for viewer in 0..<viewers {
                    let likes = preferences(favorite: favorites[viewer], second: seconds[viewer])
                    if decay < 1 {
                        state[viewer].scores = state[viewer].scores.map { $0 * decay }
                        state[viewer].shown = state[viewer].shown.map { $0 * decay }
                        state[viewer].clicked = state[viewer].clicked.map { $0 * decay }
                    }
                    if session == midpoint, policy.halfLifeDays != nil {
                        stability += self.stability(policy, state[viewer], global, likes: likes, viewer: viewer)
                    }
                    let (places, exploring) = feed(policy, state[viewer], global, &banditRNG, &world)
                    distinct += Set(places).count
                    lists += 1
                    if policy.halfLifeDays != nil {
                        for (place, category) in places.enumerated() {
                            let explored = exploring.contains(place)
                            state[viewer].shown[category] += 1
                            state[viewer].pending[category] = session
                            state[viewer].exploring[category] = explored
                            if explored { global.shown[category] += 1 }
                        }
                    }
                    if let latest = change[viewer], session - latest.session < 7 * sessionsPerDay,
                        places.first == latest.favorite
                    {
                        change[viewer] = nil
                        if latest.counted { surfaced += 1 }
                    }
                    for (place, category) in places.enumerated() {
                        impressions += 1
                        if day == 0 { firstImpressions += 1 }
                        guard clicksRNG.chance(likes[category] * model.examined(place)) else { continue }
                        clicks += 1
                        if day == 0 { firstClicks += 1 }
                        if category == favorites[viewer] { known[viewer] = (favorites[viewer], seconds[viewer]) }
                        guard policy.halfLifeDays != nil else { continue }
                        opened(viewer, category, at: session)
                        if clicksRNG.chance(0.3) { add(viewer, category, scale * InterestSignal.liked.baseWeight) }
                        if category == favorites[viewer], clicksRNG.chance(0.1) {
                            add(viewer, category, scale * InterestSignal.favorited.baseWeight)
                        }
                    }
                    // An open found elsewhere: the viewer goes looking for what they know they like.
                    let browsed = Self.draw(
                        preferences(favorite: known[viewer].favorite, second: known[viewer].second), &clicksRNG)
                    if browsed == favorites[viewer] { known[viewer] = (favorites[viewer], seconds[viewer]) }
                    if policy.halfLifeDays != nil { opened(viewer, browsed, at: session) }
                    if part == 0, clicksRNG.chance(0.15) {
                        let reviewed = Self.draw(
                            preferences(favorite: known[viewer].favorite, second: known[viewer].second), &clicksRNG)
                        let stars = reviewed == favorites[viewer] ? 5 : reviewed == seconds[viewer] ? 4 : 2
                        if policy.halfLifeDays != nil {
                            add(viewer, reviewed, scale * InterestSignal.reviewed(rating: stars).baseWeight)
                        }
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

    /// The share of a viewer's top 10 unchanged by one open of the category they like least (ties: the last),
    /// with the same random draws before and after.
    func stability(_ policy: Policy, _ viewer: Viewer, _ global: Global, likes: [Double], viewer index: Int)
        -> Double
    {
        var stray = viewer
        let least = (0..<categories).min { (likes[$0], -$0) < (likes[$1], -$1) }!
        stray.scores[least] += 1
        var noWorld = SeededRandom(seed: seed, stream: 1000)
        var (a, b) = (
            SeededRandom(seed: seed, stream: 500 + UInt64(index)), SeededRandom(seed: seed, stream: 500 + UInt64(index))
        )
        let before = feed(policy, viewer, global, &a, &noWorld).places
        noWorld = SeededRandom(seed: seed, stream: 1000)
        let after = feed(policy, stray, global, &b, &noWorld).places
        return Double(zip(before, after).filter { $0 == $1 }.count) / 10
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
