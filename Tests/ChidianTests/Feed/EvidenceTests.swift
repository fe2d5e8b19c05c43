import Foundation
import Testing

@testable import ChidianCore
@testable import ChidianTools

/// Issue #46: a category weighs in the first page in proportion to the evidence for it.
@Suite struct EvidenceTests {
    /// Fourteen categories on a site that has run a while (7.5 % click-through each); `own` is this viewer's
    /// evidence per category: interest, places shown (weighed) and clicks from them.
    static func affinities(_ own: [Int: (interest: Double, shown: Double, clicked: Double)]) -> [Affinity] {
        (0..<14).map { category in
            let mine = own[category] ?? (0, 0, 0)
            return Affinity(
                arm: Exploration.Arm(
                    categoryID: "c\(category)", shown: mine.shown, clicked: mine.clicked, globalShown: 1000,
                    globalClicked: 75),
                interest: mine.interest)
        }
    }

    /// Over many pages: how often `category` leads (more places than any other and than cold start's cap) and how
    /// many categories a page holds.
    static func pages(_ affinities: [Affinity], leader category: String) -> (leads: Double, categories: Double) {
        var generator = FixedRandom.SplitMix(seed: 11)
        var (leads, categories) = (0, 0)
        let count = 400
        for _ in 0..<count {
            let places = FeedPlanner.mixed(affinities, exploring: FeedPlanner.explorePlaces, using: &generator)
            categories += Set(places.map(\.category)).count
            if RecommenderEval.lead(places.map(\.category)) == category { leads += 1 }
        }
        return (Double(leads) / Double(count), Double(categories) / Double(count))
    }

    @Test func oneOpenIsANudgeNotALead() {
        // a cold-start page showed ten categories once each; the viewer opened the tenth place's review
        var own: [Int: (interest: Double, shown: Double, clicked: Double)] = [:]
        for category in 0..<10 { own[category] = (0, FeedPlanner.examined(category), 0) }
        own[9] = (1, FeedPlanner.examined(9), FeedPlanner.examined(9))
        let nudged = Self.pages(Self.affinities(own), leader: "c9")
        #expect(nudged.leads < 0.35, "\(nudged)")
        #expect(nudged.categories >= 5, "\(nudged)")
        // it is still a nudge: the category leads more often than one no one opened
        let untouched = Self.pages(Self.affinities(own), leader: "c3")
        #expect(nudged.leads > untouched.leads)
    }

    @Test func manyOpensOverDaysMakeALead() {
        // twelve opens' worth of decayed interest, opened at half the places it was shown
        let strong = Self.affinities([4: (12, 14, 7)])
        let pages = Self.pages(strong, leader: "c4")
        #expect(pages.leads > 0.95, "\(pages)")
        var generator = FixedRandom.SplitMix(seed: 3)
        let places = FeedPlanner.mixed(strong, exploring: FeedPlanner.explorePlaces, using: &generator)
        #expect(places.filter { $0.category == "c4" }.count >= 7)
    }

    @Test func skipsTakeAwayACategorysPlaces() {
        // the same interest; one category was then shown at thirty weighed places and never opened
        let opened = Self.affinities([2: (6, 6, 6), 5: (6, 6, 6)])
        let skipped = Self.affinities([2: (6, 6, 6), 5: (6, 36, 6)])
        #expect(skipped[5].mean < opened[5].mean / 2)
        #expect(Self.pages(skipped, leader: "c2").leads > 0.95)
        #expect(Self.pages(opened, leader: "c5").leads + Self.pages(opened, leader: "c2").leads > 0.5)
        // being skipped with no interest at all puts a category under everyone's click-through
        #expect(Self.affinities([7: (0, 10, 0)])[7].mean < Self.affinities([:])[7].mean)
    }

    @Test func theTopPlaceIsTheViewersLeadingCategoryWithoutGainingIt() {
        // one stray open of c9: the contract's first category leads the page, and it holds no more places for it
        var own: [Int: (interest: Double, shown: Double, clicked: Double)] = [:]
        own[9] = (1, FeedPlanner.examined(9), FeedPlanner.examined(9))
        let affinities = Self.affinities(own)
        var generator = FixedRandom.SplitMix(seed: 17)
        var (held, heldBefore) = (0, 0)
        for _ in 0..<400 {
            var copy = generator
            let places = FeedPlanner.mixed(
                affinities, exploring: FeedPlanner.explorePlaces, top: "c9", using: &generator)
            #expect(places.count == 10 && places[0] == .init(category: "c9", exploring: false))
            held += places.filter { $0.category == "c9" }.count
            // the same draws with the lead elsewhere: c9's places then
            heldBefore +=
                FeedPlanner.mixed(affinities, exploring: FeedPlanner.explorePlaces, top: "c0", using: &copy)
                .filter { $0.category == "c9" }.count
        }
        // c9 moved up when it had a place, took the last one's when not: at most one more place per page
        #expect(held >= heldBefore && held <= heldBefore + 400, "\(held) \(heldBefore)")
        #expect(Double(held) / 400 < 3, "a nudge, not a lead: \(Double(held) / 400) places a page")
    }

    @Test func theBestEstimatesPlacesComeFirstWhenOrderedSo() {
        // thin evidence for c4 (two opens), so other categories win places too
        let affinities = Self.affinities([4: (2, 1.5, 1.5)])
        for seed in 0..<50 {
            var generator = FixedRandom.SplitMix(seed: UInt64(seed))
            var copy = generator
            let first = FeedPlanner.mixed(
                affinities, exploring: FeedPlanner.maxExplorePlaces, top: "c4", order: .bestFirst, using: &generator)
            let bySample = FeedPlanner.mixed(
                affinities, exploring: FeedPlanner.maxExplorePlaces, top: "c4", order: .bySample, using: &copy)
            // the same draws: the same places, only their order differs
            #expect(first.map(\.category).sorted() == bySample.map(\.category).sorted())
            let held = first.filter { $0.category == "c4" }.count
            #expect(first.prefix(held).allSatisfy { $0.category == "c4" && !$0.exploring }, "\(first)")
            #expect(first.dropFirst(held).allSatisfy { $0.exploring })
        }
    }

    @Test func skipsCountByTheirWeight() {
        let arm = Exploration.Arm(categoryID: "c1", shown: 6, clicked: 1, globalShown: 1000, globalClicked: 75)
        let once = Affinity(arm: arm, interest: 1, skipWeight: 1)
        let twice = Affinity(arm: arm, interest: 1, skipWeight: 2)
        #expect(abs((twice.beta - once.beta) - 5) < 1e-9 && twice.alpha == once.alpha)
        #expect(Affinity(arm: arm, interest: 1).beta == (Affinity.skipWeight == 2 ? twice : once).beta)
    }

    @Test func withoutExploringEveryPlaceGoesToTheBestEstimate() {
        var generator = FixedRandom.SplitMix(seed: 5)
        let places = FeedPlanner.mixed(Self.affinities([1: (1, 0, 0)]), exploring: 0, using: &generator)
        #expect(places.count == 10 && places.allSatisfy { $0 == .init(category: "c1", exploring: false) })
    }

    @Test func aShowingIsRecordedPerCategoryWeighedByPlace() {
        let places = ["a", "b", "a"].map { FeedPlanner.Place(category: $0, exploring: $0 == "b") }
        let showings = Showing.of(places)
        #expect(showings.map(\.category) == ["a", "b"])
        #expect(abs(showings[0].weight - (FeedPlanner.examined(0) + FeedPlanner.examined(2))) < 1e-12)
        #expect(showings[1].exploring && !showings[0].exploring)
        #expect(FeedPlanner.examined(0) == 1 && FeedPlanner.examined(9) < 0.3)
    }
}
