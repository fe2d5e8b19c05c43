import Foundation

/// Which categories a viewer is shown to explore: Thompson sampling over each category's click-through when
/// explored. A category's prior is its click-through over every viewer (so what most people like is tried first);
/// the viewer's own showings and clicks then move it (so what this viewer ignores fades). Sampling, not ranking,
/// keeps trying categories whose numbers are still uncertain.
public struct Exploration: Sendable {
    /// What is known of one category for one viewer.
    public struct Arm: Sendable, Equatable {
        public var categoryID: String
        public var shown: Int
        public var clicked: Int
        public var globalShown: Int
        public var globalClicked: Int

        public init(categoryID: String, shown: Int, clicked: Int, globalShown: Int, globalClicked: Int) {
            self.categoryID = categoryID
            self.shown = shown
            self.clicked = clicked
            self.globalShown = globalShown
            self.globalClicked = globalClicked
        }

        /// The Beta posterior's parameters: a prior worth `priorStrength` showings at the global click-through
        /// (itself smoothed towards one half), then this viewer's own counts.
        func posterior(priorStrength: Double) -> (alpha: Double, beta: Double) {
            let mean = (Double(globalClicked) + 1) / (Double(globalShown) + 2)
            let clicks = Double(min(clicked, shown))
            return (
                priorStrength * mean + clicks,
                priorStrength * (1 - mean) + Double(shown) - clicks
            )
        }
    }

    /// Showings the global click-through counts as, for a viewer who has seen nothing explored yet.
    public static let priorStrength = 4.0

    /// One sampled click-through per arm, highest first: the first `count` are explored.
    public static func choose<G: RandomNumberGenerator>(
        _ arms: [Arm], count: Int, using generator: inout G
    ) -> [String] {
        guard count > 0 else { return [] }
        let sampled = arms.map { arm -> (String, Double) in
            let (alpha, beta) = arm.posterior(priorStrength: priorStrength)
            return (arm.categoryID, BetaSample.draw(alpha: alpha, beta: beta, using: &generator))
        }
        return sampled.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.prefix(count).map(\.0)
    }

    /// A sampled click-through per arm (for cold start, which weighs categories by it).
    public static func sample<G: RandomNumberGenerator>(_ arms: [Arm], using generator: inout G) -> [String: Double] {
        Dictionary(
            arms.map { arm in
                let (alpha, beta) = arm.posterior(priorStrength: priorStrength)
                return (arm.categoryID, BetaSample.draw(alpha: alpha, beta: beta, using: &generator))
            }, uniquingKeysWith: max)
    }

    /// A stable shard (0–15) of the global counters for a viewer, so one viewer's updates land on one row.
    static func shard(_ viewer: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in viewer.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 16)
    }
}

/// Beta variates from two Gamma variates (Marsaglia and Tsang's method).
enum BetaSample {
    static func draw<G: RandomNumberGenerator>(alpha: Double, beta: Double, using generator: inout G) -> Double {
        let x = gamma(max(alpha, 1e-3), using: &generator)
        let y = gamma(max(beta, 1e-3), using: &generator)
        return x + y > 0 ? x / (x + y) : 0.5
    }

    static func gamma<G: RandomNumberGenerator>(_ shape: Double, using generator: inout G) -> Double {
        if shape < 1 {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            return gamma(shape + 1, using: &generator) * pow(u, 1 / shape)
        }
        let d = shape - 1.0 / 3
        let c = 1 / (9 * d).squareRoot()
        while true {
            var x = 0.0
            var v = 0.0
            repeat {
                x = normal(using: &generator)
                v = 1 + c * x
            } while v <= 0
            v = v * v * v
            let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            if log(u) < 0.5 * x * x + d - d * v + d * log(v) { return d * v }
        }
    }

    static func normal<G: RandomNumberGenerator>(using generator: inout G) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
        let u2 = Double.random(in: 0..<1, using: &generator)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
