import ChidianCore
import Foundation

extension RecommenderEval {
    /// One viewer's recommender state, as the product keeps it.
    struct Viewer {
        var scores: [Double]
        /// Places shown and clicks from them per category, decayed like the scores.
        var shown: [Double]
        var clicked: [Double]
        /// Hour of the last showing, per category, and whether it explored.
        var pending: [Double?]
        var exploring: [Bool]

        init(categories: Int) {
            scores = Array(repeating: 0, count: categories)
            shown = scores
            clicked = scores
            pending = Array(repeating: nil, count: categories)
            exploring = Array(repeating: false, count: categories)
        }
    }

    /// Everyone's exploration counts.
    struct Global {
        var shown: [Int]
        var clicked: [Int]
    }

    /// A simulation's state: every viewer's, everyone's counts and the random streams, stepped as the product
    /// would be: a page shown and recorded, opens counted, signals added, time passing.
    struct Run {
        let eval: RecommenderEval
        let policy: Policy
        let model: ClickModel
        var state: [Viewer]
        var global: Global
        var world: SeededRandom
        var clicksRNG: SeededRandom
        var banditRNG: SeededRandom

        init(eval: RecommenderEval, policy: Policy, model: ClickModel, stream: UInt64, viewers: Int? = nil) {
            self.eval = eval
            self.policy = policy
            self.model = model
            state = Array(repeating: Viewer(categories: eval.categories), count: viewers ?? eval.viewers)
            let zeros = Array(repeating: 0, count: eval.categories)
            global = Global(shown: zeros, clicked: zeros)
            world = SeededRandom(seed: eval.seed, stream: stream)
            clicksRNG = SeededRandom(seed: eval.seed, stream: 99)
            banditRNG = SeededRandom(seed: eval.seed, stream: 7)
        }

        mutating func age(_ viewer: Int, hours: Double) {
            guard let halfLife = policy.halfLifeDays else { return }
            let factor = pow(0.5, hours / (halfLife * 24))
            state[viewer].scores = state[viewer].scores.map { $0 * factor }
            state[viewer].shown = state[viewer].shown.map { $0 * factor }
            state[viewer].clicked = state[viewer].clicked.map { $0 * factor }
        }

        mutating func add(_ viewer: Int, _ category: Int, _ weight: Double) {
            state[viewer].scores[category] = max(0, state[viewer].scores[category] + weight)
            cap(viewer, category)
        }

        /// `policy.evidenceCap`: a category's evidence scaled down to the cap, its mean kept.
        mutating func cap(_ viewer: Int, _ category: Int) {
            guard policy.mixed, let cap = policy.evidenceCap else { return }
            let v = state[viewer]
            let n = v.scores[category] + policy.skipWeight * max(0, v.shown[category] - v.clicked[category])
            guard n > cap else { return }
            let f = cap / n
            state[viewer].scores[category] *= f
            state[viewer].shown[category] *= f
            state[viewer].clicked[category] *= f
        }

        /// A review opened: interest, and a click of its category's showing within the last day.
        mutating func opened(_ viewer: Int, _ category: Int, at hour: Double) {
            add(viewer, category, 1)
            if let shownAt = state[viewer].pending[category], hour - shownAt <= 24 {
                state[viewer].clicked[category] = min(
                    state[viewer].shown[category], state[viewer].clicked[category] + 1)
                if state[viewer].exploring[category] { global.clicked[category] += 1 }
                cap(viewer, category)
            }
        }

        /// The viewer's first page, recorded as the product records it; its categories by place.
        mutating func page(_ viewer: Int, at hour: Double) -> [Int] {
            if policy.mixed, let g = policy.lookDecay {
                if !policy.lookDecaySkipsOnly { state[viewer].scores = state[viewer].scores.map { $0 * g } }
                state[viewer].shown = state[viewer].shown.map { $0 * g }
                state[viewer].clicked = state[viewer].clicked.map { $0 * g }
            }
            let (places, exploring) = eval.feed(policy, state[viewer], global, &banditRNG, &world)
            guard policy.halfLifeDays != nil else { return places }
            var counted = Set<Int>()
            for (place, category) in places.enumerated() {
                let explored = exploring.contains(place)
                // The mixed page weighs a place by how likely it was looked at; the page before #46 counted places.
                state[viewer].shown[category] += policy.mixed ? FeedPlanner.examined(place) : 1
                state[viewer].pending[category] = hour
                if !counted.contains(category) { state[viewer].exploring[category] = false }
                if explored { state[viewer].exploring[category] = true }
                counted.insert(category)
                cap(viewer, category)
                if explored, policy.mixed ? !places[..<place].contains(category) : true {
                    global.shown[category] += 1
                }
            }
            return places
        }

        /// A page's clicks read back (issue #46): the places looked at, as `policy.examination` infers them from
        /// the clicks, replace the position-bias weights `page` recorded. Only a mixed page, as the product would.
        mutating func read(_ viewer: Int, _ places: [Int], clicked: [Int]) {
            guard policy.mixed, policy.examination != .positionBias, !clicked.isEmpty else { return }
            let weights = policy.examination.weights(count: places.count, clicked: clicked)
            for (place, category) in places.enumerated() {
                state[viewer].shown[category] += weights[place] - FeedPlanner.examined(place)
            }
        }

        /// The share of a viewer's top 10 unchanged by one open of the category they like least (ties: the last),
        /// with the same random draws before and after.
        func stability(_ viewer: Int, likes: [Double]) -> Double {
            var stray = state[viewer]
            let least = (0..<eval.categories).min { (likes[$0], -$0) < (likes[$1], -$1) }!
            stray.scores[least] += 1
            let seed = eval.seed
            var noWorld = SeededRandom(seed: seed, stream: 1000)
            var (a, b) = (
                SeededRandom(seed: seed, stream: 500 + UInt64(viewer)),
                SeededRandom(seed: seed, stream: 500 + UInt64(viewer))
            )
            let before = eval.feed(policy, state[viewer], global, &a, &noWorld).places
            noWorld = SeededRandom(seed: seed, stream: 1000)
            let after = eval.feed(policy, stray, global, &b, &noWorld).places
            return Double(zip(before, after).filter { $0 == $1 }.count) / 10
        }
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
        guard policy.personal, let top = interests.first else {
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
        let known = Set(ViewerState.shown((0..<categories).map { (String($0), viewer.scores[$0]) }).map { Int($0)! })
        if policy.mixed {
            let affinities = arms(viewer, global, only: Array(0..<categories)).enumerated().map {
                Affinity(
                    arm: $0.element, interest: viewer.scores[$0.offset], priorStrength: policy.priorStrength,
                    skipWeight: policy.skipWeight)
            }
            let budget = Self.exploring(policy, affinities)
            let mixed = FeedPlanner.mixed(
                affinities, exploring: budget, top: String(top), order: policy.order, using: &rng)
            let places = mixed.map { Int($0.category)! }
            let exploring = mixed.indices.filter { mixed[$0].exploring && !known.contains(places[$0]) }
            return (places, Set(exploring))
        }
        var places = Array(repeating: top, count: 10)
        let unshown = (0..<categories).filter { !known.contains($0) }
        let allocated = Exploration.allocate(
            own: arms(viewer, global, only: [top]).first, unshown: arms(viewer, global, only: unshown),
            places: Self.fixedPlaces(policy.explorePlaces), using: &rng)
        for (place, category) in allocated { places[place] = Int(category)! }
        return (places, Set(allocated.map(\.place)))
    }

    /// How many places a mixed page may explore: the policy's, or with `exploringEvidence` fewer as the evidence for
    /// the best estimate (its alpha and beta beyond the prior's showings) grows.
    static func exploring(_ policy: Policy, _ affinities: [Affinity]) -> Int {
        guard let k = policy.exploringEvidence,
            let best = affinities.max(by: { ($0.mean, $1.categoryID) < ($1.mean, $0.categoryID) })
        else { return policy.explorePlaces }
        let evidence = max(0, best.alpha + best.beta - policy.priorStrength)
        return Int((Double(policy.explorePlaces) * k / (k + evidence)).rounded(.up))
    }

    /// The exploring places of the feed before issue #46, spread over the first ten.
    static func fixedPlaces(_ count: Int) -> [Int] {
        switch count {
        case ...0: return []
        case 1: return [4]
        case 2: return [4, 8]
        default: return [3, 6, 9]
        }
    }
}
