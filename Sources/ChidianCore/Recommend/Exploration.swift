import Foundation

/// Which categories a viewer is shown to explore, and whether to explore at all: Thompson sampling over
/// click-through per place shown. An unshown category's prior is its click-through when explored over every viewer
/// (what most people like is tried first); the viewer's own showings and clicks then move it (what this viewer
/// ignores fades). An exploring place goes to the best sampled category only when that sample beats a sample of the
/// viewer's own top category's click-through, so a viewer whose feed serves them well is rarely disturbed, and one
/// whose taste moved (their own category's click-through falls) is explored at once. The viewer's counts decay with
/// the interest half-life, so nobody is locked in: old evidence fades and exploring resumes.
public struct Exploration: Sendable {
    /// What is known of one category for one viewer.
    public struct Arm: Sendable, Equatable {
        public var categoryID: String
        /// Places shown and reviews opened from them, decayed to now.
        public var shown: Double
        public var clicked: Double
        public var globalShown: Int
        public var globalClicked: Int

        public init(categoryID: String, shown: Double, clicked: Double, globalShown: Int, globalClicked: Int) {
            self.categoryID = categoryID
            self.shown = shown
            self.clicked = clicked
            self.globalShown = globalShown
            self.globalClicked = globalClicked
        }

        /// The Beta posterior's parameters: a prior worth `priorStrength` showings at the global click-through
        /// (itself smoothed towards one half), then this viewer's own counts.
        func posterior(priorStrength: Double) -> (alpha: Double, beta: Double) {
            // Several opens after one showing can count (a viewer reads two of its reviews): kept below one.
            let mean = min(0.99, (Double(globalClicked) + 1) / (Double(globalShown) + 2))
            let clicks = min(clicked, shown)
            return (priorStrength * mean + clicks, priorStrength * (1 - mean) + shown - clicks)
        }
    }

    /// Showings the global click-through counts as, for a viewer who has seen nothing explored yet.
    public static let priorStrength = 16.0

    /// One sampled click-through per arm, highest first: the first `count` are explored.
    public static func choose<G: RandomNumberGenerator>(
        _ arms: [Arm], count: Int, using generator: inout G
    ) -> [String] {
        guard count > 0 else { return [] }
        return choose(arms, count: count, sampled: true, using: &generator).map(\.id)
    }

    /// The exploring places of one page: for each place in order, the best-sampled category not yet taken, when
    /// its sample beats a sample of `own`'s click-through (uniform prior, the viewer's own counts); every place
    /// explores while `own` has less than one place of evidence.
    public static func allocate<G: RandomNumberGenerator>(
        own: Arm?, unshown: [Arm], places: [Int], using generator: inout G
    ) -> [(place: Int, category: String)] {
        var chosen: [(place: Int, category: String)] = []
        for place in places {
            let open = unshown.filter { arm in !chosen.contains { $0.category == arm.categoryID } }
            guard let best = choose(open, count: 1, sampled: true, using: &generator).first else { break }
            if let own, own.shown >= 1 {
                let clicks = min(own.clicked, own.shown)
                let mine = BetaSample.draw(alpha: 1 + clicks, beta: 1 + own.shown - clicks, using: &generator)
                guard best.sample > mine else { continue }
            }
            chosen.append((place, best.id))
        }
        return chosen
    }

    package static func choose<G: RandomNumberGenerator>(
        _ arms: [Arm], count: Int, sampled: Bool, using generator: inout G
    ) -> [(id: String, sample: Double)] {
        let drawn = arms.map { arm -> (id: String, sample: Double) in
            let (alpha, beta) = arm.posterior(priorStrength: priorStrength)
            return (arm.categoryID, BetaSample.draw(alpha: alpha, beta: beta, using: &generator))
        }
        return Array(drawn.sorted { ($0.sample, $0.id) > ($1.sample, $1.id) }.prefix(count))
    }

    /// A sampled click-through per arm (for cold start, which weighs categories by it).
    public static func sample<G: RandomNumberGenerator>(_ arms: [Arm], using generator: inout G) -> [String: Double] {
        Dictionary(
            arms.map { arm in
                let (alpha, beta) = arm.posterior(priorStrength: priorStrength)
                return (arm.categoryID, BetaSample.draw(alpha: alpha, beta: beta, using: &generator))
            }, uniquingKeysWith: max)
    }
}

/// Beta variates from two Gamma variates (Marsaglia and Tsang's method).
enum BetaSample {
    package static func draw<G: RandomNumberGenerator>(alpha: Double, beta: Double, using generator: inout G) -> Double
    {
        let x = gamma(max(alpha, 1e-3), using: &generator)
        let y = gamma(max(beta, 1e-3), using: &generator)
        return x + y > 0 ? x / (x + y) : 0.5
    }

    static func gamma<G: RandomNumberGenerator>(_ shape: Double, using generator: inout G) -> Double {
        if shape < 1 {
            let u = uniform(from: Double.ulpOfOne, using: &generator)
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
            let u = uniform(from: Double.ulpOfOne, using: &generator)
            // The method's squeeze: it lies inside the acceptance region, so it accepts what the logarithms would
            // (the same draws, `HandWrittenEquivalenceTests`) without computing them nearly every time.
            let square = x * x
            if u < 1 - 0.0331 * square * square { return d * v }
            if log(u) < 0.5 * square + d - d * v + d * log(v) { return d * v }
        }
    }

    /// `Double.random(in: lower..<1, using:)` as the standard library computes it, written out: its unspecialised
    /// generic path was a seventh of a featured page's CPU. The same generator gives the same numbers
    /// (`BetaSampleTests`).
    @inline(__always)
    static func uniform<G: RandomNumberGenerator>(from lower: Double, using generator: inout G) -> Double {
        let delta = 1 - lower
        while true {
            let unit = Double(generator.next() & (1 << 53 - 1)) * (Double.ulpOfOne / 2)
            let value = delta * unit + lower
            if value != 1 { return value }
        }
    }

    static func normal<G: RandomNumberGenerator>(using generator: inout G) -> Double {
        let u1 = uniform(from: Double.ulpOfOne, using: &generator)
        let u2 = uniform(from: 0, using: &generator)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
