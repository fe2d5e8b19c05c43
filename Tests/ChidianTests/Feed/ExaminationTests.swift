import Foundation
import Testing

@testable import ChidianCore
@testable import ChidianTools

/// Issue #46: what a page's clicks say about which places were looked at (`RecommenderEval.Examination`).
@Suite struct ExaminationTests {
    static let byPosition = (0..<10).map(FeedPlanner.examined)

    @Test func byPositionIgnoresTheClicks() {
        let weights = RecommenderEval.Examination.positionBias.weights(count: 10, clicked: [6])
        #expect(weights == Self.byPosition)
    }

    @Test func withoutAClickEveryInferenceIsByPosition() {
        for examination in RecommenderEval.Examination.allCases {
            #expect(examination.weights(count: 10, clicked: []) == Self.byPosition, "\(examination)")
        }
    }

    @Test func everyPlaceAboveTheLastClickWasLookedAt() {
        // clicks at 2 and 5: places 0...5 were certainly read, whatever came first
        for examination in [RecommenderEval.Examination.aboveClicks, .cascade] {
            let weights = examination.weights(count: 10, clicked: [2, 5])
            #expect(weights.prefix(6).allSatisfy { $0 == 1 }, "\(examination): \(weights)")
            #expect(weights.dropFirst(6).allSatisfy { $0 < 1 }, "\(examination): \(weights)")
        }
    }

    @Test func belowTheLastClickAboveClicksKeepsPositionAndACascadeCountsAfreshHalved() {
        let above = RecommenderEval.Examination.aboveClicks.weights(count: 10, clicked: [3])
        #expect(Array(above.dropFirst(4)) == Array(Self.byPosition.dropFirst(4)))
        let cascade = RecommenderEval.Examination.cascade.weights(count: 10, clicked: [3])
        // the place right below the click is the first of a fresh reading, read on by half the readers
        #expect(cascade[4] == 0.5 && abs(cascade[9] - FeedPlanner.examined(5) / 2) < 1e-12, "\(cascade)")
        // far below the click a cascade credits less than position bias does
        #expect(cascade[9] < above[9])
    }

    @Test func theSimulationReadsClicksBackOnlyWhenAskedTo() {
        var eval = RecommenderEval()
        eval.viewers = 40
        var inferred = RecommenderEval.Policy.learning(halfLifeDays: 2, explorePlaces: 10)
        inferred.examination = .cascade
        let shipped = eval.sessions(.learning(halfLifeDays: 2, explorePlaces: 10), model: .cascade)
        #expect(eval.sessions(inferred, model: .cascade) == eval.sessions(inferred, model: .cascade))
        #expect(eval.sessions(inferred, model: .cascade) != shipped)
        #expect(inferred.description.hasSuffix("skips as a cascade"))
    }

    @Test func exploringShrinksWithTheEvidenceOnlyWhenAskedTo() {
        var policy = RecommenderEval.Policy.learning(halfLifeDays: 2, explorePlaces: 10)
        let thin = EvidenceTests.affinities([3: (1, 0, 0)])
        let strong = EvidenceTests.affinities([3: (12, 14, 7)])
        #expect(RecommenderEval.exploring(policy, strong) == 10)
        policy.exploringEvidence = 2
        // one open: 10 × 2 / 3 rounded up; twelve opens and 7 weighed skips ×2: 10 × 2 / 28 rounded up
        #expect(RecommenderEval.exploring(policy, thin) == 7)
        #expect(RecommenderEval.exploring(policy, strong) == 1)
    }
}
