import Foundation
import Testing

@testable import ChidianCore

/// The judge's arithmetic on evidence (the evidence's gathering and the thresholds' choice are tested apart).
@Suite struct TrustJudgeTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func review(
        _ id: String, author: String, store: String = "s1", rating: Int = 5, ageHours: Double = 24 * 400,
        activity: Int = 40, opened: Bool = true, mean: Double? = 3.0, newcomers: Int = 0, origins: Set<Int64> = [],
        copied: Double = 0, from: String? = nil, fortnight: Int = 0, alike: Int = 0, daysLater: Double = 0
    ) -> ReviewEvidence {
        let posted = now.addingTimeInterval(daysLater * 86400)
        return ReviewEvidence(
            commentID: id, authorID: author, storeID: store, rating: rating, postedAt: posted,
            authorSince: posted.addingTimeInterval(-ageHours * 3600), priorActivity: activity,
            openedStoreBefore: opened, settledMean: mean, newcomersAround: newcomers, newcomersFortnight: fortnight,
            fortnightAlike: alike, origins: origins, copiedSimilarity: copied, copiedFrom: from)
    }

    /// A regular reviewing on a ring's day is not part of its burst; a new account is.
    @Test func aBurstCountsAgainstNewAccountsOnly() {
        let verdicts = TrustJudge().judge([
            Self.review("old", author: "u1", rating: 4, newcomers: 9),
            Self.review("new", author: "u2", rating: 4, ageHours: 30, newcomers: 9),
        ])
        #expect(verdicts[0].signals.isEmpty)
        #expect(verdicts[1].signals.map(\.kind) == ["new_account", "burst"])
    }

    /// A ring that browses first and spreads over two weeks shows in the store's fortnight: many new accounts,
    /// nearly all with the same extreme rating. New accounts who differ are a crowd, not a ring.
    @Test func aSlowRingThatBrowsedIsJudgedByItsFortnight() {
        var strict = TrustJudge.Weights()
        strict.threshold = 3.0
        let judge = TrustJudge(weights: strict)
        let ring = judge.judge([
            Self.review("r", author: "u1", rating: 5, ageHours: 30, activity: 6, mean: 4.0, fortnight: 20, alike: 18)
        ])[0]
        #expect(ring.signals.map(\.kind) == ["new_account", "slow_burst", "one_sided"])
        // new account (half: over a day old) + slow burst (full at 20) + one-sided
        #expect(abs(ring.score - (0.5 + 1.5 + 1)) < 1e-9 && !ring.recommended)
        let crowd = judge.judge([
            Self.review("c", author: "u1", rating: 5, ageHours: 30, activity: 6, mean: 4.0, fortnight: 20, alike: 6)
        ])[0]
        #expect(crowd.signals.map(\.kind) == ["new_account", "slow_burst"])
        #expect(crowd.recommended)
    }

    /// Two stores in common link two accounts only when they reviewed them within days of each other.
    @Test func coReviewingLinksOnlyTogether() {
        let groups = TrustGroups([
            Self.review("a1", author: "a", store: "s1"), Self.review("a2", author: "a", store: "s2"),
            Self.review("b1", author: "b", store: "s1", daysLater: 10),
            Self.review("b2", author: "b", store: "s2", daysLater: 10),
        ])
        #expect(groups.membership()["a"] == ["a"])
    }

    @Test func anOrdinaryReviewShowsNothing() {
        let verdict = TrustJudge().judge([Self.review("c1", author: "u1", rating: 4)])[0]
        #expect(verdict.recommended && verdict.score == 0 && verdict.signals.isEmpty)
    }

    /// A newcomer who browsed before writing their first review in their own words is recommended.
    @Test func aNewUserWhoBrowsedIsRecommended() {
        let verdict = TrustJudge().judge([
            Self.review("c1", author: "u1", rating: 5, ageHours: 30, activity: 6, opened: true)
        ])[0]
        #expect(verdict.recommended)
        #expect(verdict.signals.map(\.kind) == ["new_account", "far_from_mean"])
    }

    @Test func aRingFromFewAddressesIsNotRecommended() {
        let ring = (0..<8).map { n in
            Self.review(
                "r\(n)", author: "ring\(n)", ageHours: 3, activity: 0, opened: false, newcomers: 7,
                origins: [Int64(n % 2)])
        }
        let verdicts = TrustJudge().judge(ring)
        #expect(verdicts.allSatisfy { !$0.recommended })
        let kinds = Set(verdicts[0].signals.map(\.kind))
        #expect(
            kinds == ["new_account", "no_history", "never_opened", "burst", "far_from_mean", "shared_origin", "group"]
        )
    }

    /// A member that alone passes is judged with its group.
    @Test func aLinkedAccountIsJudgedWithItsGroup() {
        let quiet = Self.review("q", author: "quiet", ageHours: 24 * 3, activity: 1, opened: true, origins: [9])
        #expect(TrustJudge().judge([quiet])[0].recommended)
        let ring = (0..<5).map { n in
            Self.review(
                "r\(n)", author: "ring\(n)", ageHours: 2, activity: 0, opened: false, newcomers: 5, origins: [9])
        }
        let withRing = TrustJudge().judge([quiet] + ring)
        #expect(!withRing[0].recommended)
        #expect(withRing[0].signals.contains { $0.kind == "shared_origin" })
    }

    @Test func groupsLinkByOriginCopiedTextAndTwoStoresInCommon() {
        let reviews = [
            Self.review("a1", author: "a", store: "s1", origins: [1]),
            Self.review("b1", author: "b", store: "s9", origins: [1]),
            Self.review("c1", author: "c", store: "s7", copied: 0.9, from: "b"),
            Self.review("d1", author: "d", store: "s1"), Self.review("d2", author: "d", store: "s2"),
            Self.review("e1", author: "e", store: "s1"), Self.review("e2", author: "e", store: "s2"),
            Self.review("f1", author: "f", store: "s1"),
        ]
        let groups = TrustGroups(reviews)
        #expect(groups.membership()["a"] == ["a", "b", "c"])
        #expect(groups.membership()["d"] == ["d", "e"])
        // one store in common is no link
        #expect(groups.membership()["f"] == ["f"])
        #expect(groups.sharedOrigins(of: "a") == 1 && groups.sharedOrigins(of: "c") == 0)
    }
}
