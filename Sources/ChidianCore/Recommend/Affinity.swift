import Foundation

/// A viewer's taste for one category as a click-through with its uncertainty (issue #46): a Beta posterior that
/// starts at everyone's click-through worth `priorStrength` showings, then takes the viewer's own evidence: their
/// interest score (opens, likes, favorites, reviews, in opens) on one side, the places they were shown and did not
/// open (skips, weighed by how likely the place was looked at) on the other. One open moves a category a little; many
/// opens over days make it lead; a category that stops being opened when shown loses its places.
public struct Affinity: Sendable, Equatable {
    public var categoryID: String
    public var alpha: Double
    public var beta: Double

    /// Showings everyone's click-through counts as. Chosen by `chidian eval-recommender` (docs/RECOMMENDER.md).
    public static let priorStrength = 8.0
    /// Failures one skip counts as: a place shown and not opened, weighed by how likely it was looked at
    /// (`FeedPlanner.examined`), times this. Chosen by `chidian eval-recommender` (docs/RECOMMENDER.md).
    public static let skipWeight = 2.0

    public init(categoryID: String, alpha: Double, beta: Double) {
        self.categoryID = categoryID
        self.alpha = alpha
        self.beta = beta
    }

    /// From a category's exploration counts (`Exploration.Arm`: the viewer's decayed showings and clicks from them,
    /// everyone's) and the viewer's decayed interest in it.
    public init(
        arm: Exploration.Arm, interest: Double, priorStrength: Double = priorStrength, skipWeight: Double = skipWeight
    ) {
        let prior = min(0.99, (Double(arm.globalClicked) + 1) / (Double(arm.globalShown) + 2))
        let skips = max(0, arm.shown - min(arm.clicked, arm.shown))
        self.init(
            categoryID: arm.categoryID, alpha: priorStrength * prior + max(0, interest),
            beta: priorStrength * (1 - prior) + skipWeight * skips)
    }

    public var mean: Double { alpha / (alpha + beta) }

    func sample<G: RandomNumberGenerator>(using generator: inout G) -> Double {
        BetaSample.draw(alpha: alpha, beta: beta, using: &generator)
    }
}
