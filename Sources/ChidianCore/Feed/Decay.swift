import Foundation

/// Exponential decay of click interest: a click is worth 1 now and half as much one half-life later.
/// Scores are stored with the time they were last decayed to, so a click is one O(1) upsert.
public enum Decay {
    /// `score` as of `from`, decayed to `to`. Never grows: a clock step backwards leaves it unchanged.
    public static func decayed(_ score: Double, from: Date, to: Date, halfLife: Double) -> Double {
        let age = max(0, to.timeIntervalSince(from))
        return score * pow(0.5, age / halfLife)
    }

    /// Below this a category no longer counts as an interest.
    public static let threshold = 0.001
}
