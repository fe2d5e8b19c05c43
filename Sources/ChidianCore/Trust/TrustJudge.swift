import Foundation

/// Scores reviews from their evidence and judges them (docs/TRUST.md). A ring is many accounts that each look
/// ordinary alone, so reviews are judged with their group: accounts linked by a shared origin, copied text or
/// reviewing the same stores together. Pure: the thresholds come from `chidian eval-trust`, the evidence from
/// the database.
package struct TrustJudge: Sendable {
    /// What each signal weighs at full strength, and where a score turns a review not recommended.
    package struct Weights: Sendable, Equatable {
        package var newAccount = 1.0
        package var noHistory = 1.0
        package var neverOpened = 1.0
        package var burst = 1.5
        package var farFromMean = 1.0
        package var copiedText = 2.0
        package var sharedOrigin = 1.5
        /// How much of its group's mean score a member takes on, at full group size.
        package var group = 0.5
        /// Chosen with `group` by `chidian eval-trust`'s rule (docs/TRUST.md).
        package var threshold = 5.0

        package init() {}
    }

    /// One review's verdict with what was seen.
    package struct Verdict: Sendable, Equatable {
        package var commentID: String
        package var recommended: Bool
        package var score: Double
        package var signals: [TrustSignal]
    }

    /// An origin shared by more accounts than this (a proxy, a campus) says nothing about any of them.
    package static let rareOrigin = 20
    /// Texts with fewer character pairs are too short to call copied.
    package static let copyMinimumPairs = 8

    package var weights = Weights()
    /// Accounts this young are new.
    package var newAccountAge: TimeInterval = 7 * 86400

    package init(weights: Weights = Weights()) {
        self.weights = weights
    }

    /// Judges a set of reviews together: their groups are found among them.
    package func judge(_ reviews: [ReviewEvidence]) -> [Verdict] {
        let groups = TrustGroups(reviews)
        let alone = reviews.map { signals(of: $0, sharing: groups.sharedOrigins(of: $0.authorID)) }
        let base = alone.map { $0.reduce(0) { $0 + $1.weight } }
        let membership = groups.membership()
        var reviewsOf: [String: [Int]] = [:]
        for (i, review) in reviews.enumerated() { reviewsOf[review.authorID, default: []].append(i) }
        return reviews.indices.map { i in
            let members = membership[reviews[i].authorID] ?? [reviews[i].authorID]
            var found = alone[i].map(\.signal)
            var score = base[i]
            let others = members.flatMap { reviewsOf[$0] ?? [] }.filter { $0 != i }
            let mean = others.isEmpty ? 0 : others.map { base[$0] }.reduce(0, +) / Double(others.count)
            if mean > 0 {
                let size = min(1, Double(members.count - 1) / 4)
                score += weights.group * size * mean
                found.append(
                    TrustSignal(kind: "group", detail: "one of \(members.count) linked accounts"))
            }
            return Verdict(
                commentID: reviews[i].commentID, recommended: score < weights.threshold, score: score,
                signals: found)
        }
    }

    /// A review's signals alone, each with its weight at the strength seen.
    func signals(of review: ReviewEvidence, sharing: Int) -> [(signal: TrustSignal, weight: Double)] {
        var found: [(TrustSignal, Double)] = []
        func add(_ kind: String, _ weight: Double, _ strength: Double, _ detail: String) {
            guard strength > 0 else { return }
            found.append((TrustSignal(kind: kind, detail: detail), weight * min(1, strength)))
        }
        let age = review.postedAt.timeIntervalSince(review.authorSince)
        if review.historyKnown, age < newAccountAge {
            add("new_account", weights.newAccount, age < 86400 ? 1 : 0.5, "account \(Int(age / 3600)) h old")
        }
        if review.historyKnown, review.priorActivity < 3 {
            add(
                "no_history", weights.noHistory, review.priorActivity == 0 ? 1 : 0.5,
                "\(review.priorActivity) reviews, opens or favorites before")
        }
        if review.historyKnown, !review.openedStoreBefore {
            add("never_opened", weights.neverOpened, 1, "reviewed without opening the store")
        }
        // A burst speaks of the new accounts in it: an old regular reviewing on a ring's day is not part of it. New
        // accounts crowding a store within a day, or spread over two weeks (a ring that takes its time): the
        // stronger of the two counts.
        if review.historyKnown, age < newAccountAge {
            let day = review.newcomersAround >= 3 ? Double(review.newcomersAround) / 10 : 0
            let fortnight = review.newcomersFortnight >= 8 ? Double(review.newcomersFortnight) / 20 : 0
            if day > 0, day >= fortnight {
                add(
                    "burst", weights.burst, day,
                    "\(review.newcomersAround) other new accounts reviewed the store within a day")
            } else if fortnight > 0 {
                add(
                    "slow_burst", weights.burst, fortnight,
                    "\(review.newcomersFortnight) other new accounts reviewed the store within two weeks")
            }
            // People differ; a ring agrees: most of those new accounts gave this same extreme rating.
            if review.newcomersFortnight >= 8, review.rating == 5 || review.rating == 1,
                Double(review.fortnightAlike) >= 0.8 * Double(review.newcomersFortnight)
            {
                add("one_sided", weights.farFromMean, 1, "\(review.fortnightAlike) of them gave \(review.rating)★ too")
            }
        }
        if let mean = review.settledMean, abs(Double(review.rating) - mean) >= 1.5 {
            add(
                "far_from_mean", weights.farFromMean, abs(Double(review.rating) - mean) / 3,
                "\(review.rating)★ against a settled \(String(format: "%.1f", mean))")
        }
        if review.copiedSimilarity >= 0.6 {
            add(
                "copied_text", weights.copiedText, (review.copiedSimilarity - 0.5) * 2,
                "text \(Int(review.copiedSimilarity * 100)) % like another account's")
        }
        if sharing > 0 {
            add(
                "shared_origin", weights.sharedOrigin, Double(sharing) / 3,
                "\(sharing) other accounts from the same address or device")
        }
        return found
    }
}
