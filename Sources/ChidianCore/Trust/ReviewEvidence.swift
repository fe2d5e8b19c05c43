import Foundation

/// What the judge weighs about one review (issue #48, docs/TRUST.md), gathered from what Chidian already keeps.
/// Hashes stand for addresses and visitor ids: the judge compares them and never needs the originals.
package struct ReviewEvidence: Sendable, Equatable {
    package var commentID: String
    package var authorID: String
    package var storeID: String
    package var rating: Int
    package var postedAt: Date
    /// When the author's account was made.
    package var authorSince: Date
    /// Whether the account existed here when the review was posted. An imported review is older than its account:
    /// its author's age, history and opens then are unknown, and signals that need them stay silent.
    package var historyKnown = true
    /// The author's reviews, review opens and favorites before this review.
    package var priorActivity: Int
    /// Whether the author opened the store's page before reviewing it.
    package var openedStoreBefore: Bool
    /// The mean of the store's recommended reviews older than a week, when there are enough to settle it.
    package var settledMean: Double?
    /// Other reviews of the store by accounts under a week old, posted within a day of this one.
    package var newcomersAround: Int
    /// Other new accounts that reviewed the store within two weeks of this review: a ring that spreads itself thin.
    package var newcomersFortnight = 0
    /// Of those, how many gave the same rating as this review.
    package var fortnightAlike = 0
    /// Hashes of the addresses and visitor ids the author signed up and posted from.
    package var origins: Set<Int64>
    /// The highest trigram similarity (0–1) with another account's review of the last 30 days, and that author.
    package var copiedSimilarity: Double = 0
    package var copiedFrom: String?
}
