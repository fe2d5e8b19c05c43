import ChidianCore
import Foundation

extension RecommenderEval {
    /// How a viewer reads a list of ten.
    public enum ClickModel: String, CaseIterable, Sendable {
        /// Every place is seen; a review is clicked with the viewer's liking of its category.
        case everyPlace = "every place seen"
        /// Lower places are seen less: the liking times 1 / log2(place + 2) (place from 0).
        case positionBias = "position bias"
        /// From the top down: each place is looked at, then the reader goes on with probability 0.85, and after a
        /// click stops with probability 0.5 (issue #46's reader).
        case cascade = "cascade"

        static let goOn = 0.85
        static let stopAfterClick = 0.5

        /// The places clicked, in order.
        func read(_ places: [Int], likes: [Double], using rng: inout SeededRandom) -> [Int] {
            var clicked: [Int] = []
            for (place, category) in places.enumerated() {
                switch self {
                case .everyPlace, .positionBias:
                    let seen = self == .everyPlace ? 1 : 1 / log2(Double(place) + 2)
                    if rng.chance(likes[category] * seen) { clicked.append(place) }
                case .cascade:
                    if rng.chance(likes[category]) {
                        clicked.append(place)
                        if rng.chance(Self.stopAfterClick) { return clicked }
                    }
                    if !rng.chance(Self.goOn) { return clicked }
                }
            }
            return clicked
        }
    }

    public struct Policy: Hashable, Sendable, CustomStringConvertible {
        /// nil: newest first, learning nothing.
        public var halfLifeDays: Double?
        /// Favorites, likes and the viewer's own reviews count (else opens alone).
        public var signals: Bool
        /// Multiplies every signal's weight (1: the base weights).
        public var signalScale: Double
        public var explorePlaces: Int
        /// Cold start for viewers without interests (else newest first).
        public var coldStart: Bool
        /// The first page mixed by the evidence (issue #46); else the top category fills every place but the
        /// exploring ones.
        public var mixed = false
        /// `Affinity.priorStrength` (mixed pages).
        public var priorStrength = Affinity.priorStrength
        /// Uses what it learns of the viewer (else cold start every time: the feed of nobody).
        public var personal = true
        /// `FeedPlanner.order` and `Affinity.skipWeight` (mixed pages).
        public var order = FeedPlanner.order
        public var skipWeight = Affinity.skipWeight
        /// What a page's clicks say was looked at (`RecommenderEval.Examination`): position bias alone, or a cascade
        /// (places above a click certainly seen, places below the last click less likely).
        public var examination = RecommenderEval.Examination.positionBias
        /// Evaluated, not shipped (docs/RECOMMENDER.md): the exploring places shrink with the evidence for the best
        /// estimate, n showings' worth beyond the prior (its opens and weighed skips), to ceil(places × k / (k + n)).
        public var exploringEvidence: Double? = nil
        /// Evaluated: each first page the viewer is shown (a look) first multiplies their evidence by this, so a
        /// viewer who comes often forgets by their visits as well as by the clock. `skipsOnly`: only the showings
        /// and their clicks (the skips), not the interest scores.
        public var lookDecay: Double? = nil
        public var lookDecaySkipsOnly = false
        /// Evaluated: a category's stored evidence (interest plus weighed skips) is scaled down to at most this many
        /// showings' worth after each change, a memory counted in evidence rather than time.
        public var evidenceCap: Double? = nil

        public static let newest = Policy(
            halfLifeDays: nil, signals: false, signalScale: 1, explorePlaces: 0, coldStart: false)
        /// What the product shipped before issue 30: opens only, 7 days, no exploring, newest first when cold.
        public static let shipped = Policy(
            halfLifeDays: 7, signals: false, signalScale: 1, explorePlaces: 0, coldStart: false)
        /// Cold start on every visit, whatever the viewer did.
        public static let coldOnly = Policy(
            halfLifeDays: 1, signals: false, signalScale: 1, explorePlaces: 0, coldStart: true, personal: false)
        /// The feed before issue #46: 1 day, signals ×2, the top category everywhere but places 4, 7 and 10.
        public static let leader = Policy(
            halfLifeDays: 1, signals: true, signalScale: 2, explorePlaces: 3, coldStart: true)

        /// A mixed first page (issue #46).
        public static func learning(
            halfLifeDays: Double, explorePlaces: Int, signalScale: Double = InterestSignal.scale,
            priorStrength: Double = Affinity.priorStrength, order: FeedPlanner.Order = FeedPlanner.order,
            skipWeight: Double = Affinity.skipWeight
        ) -> Policy {
            Policy(
                halfLifeDays: halfLifeDays, signals: signalScale > 0, signalScale: signalScale,
                explorePlaces: explorePlaces, coldStart: true, mixed: true, priorStrength: priorStrength,
                order: order, skipWeight: skipWeight)
        }

        public var description: String {
            guard let halfLifeDays else { return "newest first" }
            if self == .shipped { return "before issue 30 (opens, 7 d, top category only)" }
            if self == .coldOnly { return "cold start only (learns nothing of the viewer)" }
            if self == .leader { return "before #46 (1 d, signals ×2, top category, explore at 4/7/10)" }
            let signals = signals ? "signals ×\(signalScale.formatted())" : "opens"
            var seen = examination == .positionBias ? "" : ", skips \(examination.rawValue)"
            if let k = exploringEvidence { seen += ", exploring × \(k.formatted()) / (\(k.formatted()) + evidence)" }
            if let c = evidenceCap { seen += ", evidence capped at \(c.formatted())" }
            if let g = lookDecay { seen += ", \(lookDecaySkipsOnly ? "skips" : "evidence") ×\(g.formatted()) a look" }
            return "mixed, \(halfLifeDays.formatted()) d, \(signals), prior \(priorStrength.formatted()), "
                + "explore \(explorePlaces)/10, skips ×\(skipWeight.formatted()), \(order.rawValue)\(seen)"
        }
    }
}
