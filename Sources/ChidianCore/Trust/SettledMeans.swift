import Foundation

/// A store's settled mean as each review saw it (`ReviewEvidence.settledMean`): the mean rating of the store's
/// latest `depth` recommended live reviews posted before the week ahead of the review, when there are at least
/// `minimum` of them. Built from each store's ratings read once (`TrustEvidenceStatements.settledRatings`).
struct SettledMeans {
    static let depth = 200
    static let minimum = 5

    /// Each store's ratings, newest first (ties by id, newest first), as the statement orders them.
    private var ratings: [String: [(at: Date, rating: Int)]] = [:]

    init() {}

    /// Appends the store's next older rating.
    mutating func append(store: String, at: Date, rating: Int) {
        ratings[store, default: []].append((at, rating))
    }

    /// The mean of the store's reviews posted before `cut` (the review's time less a week, as the database counts
    /// it), nil when fewer than `minimum`.
    func mean(store: String, before cut: Date) -> Double? {
        guard let list = ratings[store] else { return nil }
        // Newest first: the reviews before the cut are a suffix.
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].at < cut { high = middle } else { low = middle + 1 }
        }
        let counted = list[low...].prefix(Self.depth)
        guard counted.count >= Self.minimum else { return nil }
        return Double(counted.reduce(0) { $0 + $1.rating }) / Double(counted.count)
    }
}
