import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct RecommenderEvalTests {
    static var small: RecommenderEval {
        var eval = RecommenderEval()
        eval.viewers = 80
        eval.days = 28
        return eval
    }

    @Test func learningBeatsNewestAndTheSimulationIsDeterministic() {
        let eval = Self.small
        let newest = eval.simulate(.newest, drift: true, model: .everyPlace)
        let shipped = eval.simulate(.shipped, drift: true, model: .everyPlace)
        let learning = eval.simulate(.learning(halfLifeDays: 2, explorePlaces: 2), drift: true, model: .everyPlace)
        #expect(shipped.ctr > newest.ctr)
        #expect(learning.ctr > shipped.ctr)
        #expect(eval.simulate(.shipped, drift: true, model: .everyPlace) == shipped)
    }

    @Test func exploringShowsMoreCategoriesAndColdStartBeatsNewestOnTheFirstDay() {
        let eval = Self.small
        let quiet = eval.simulate(.learning(halfLifeDays: 2, explorePlaces: 0), drift: false, model: .everyPlace)
        let exploring = eval.simulate(.learning(halfLifeDays: 2, explorePlaces: 3), drift: false, model: .everyPlace)
        let newest = eval.simulate(.newest, drift: false, model: .everyPlace)
        // Issue #46: exploring places are no longer fixed, so they add fewer categories than the three they were.
        #expect(exploring.diversity > quiet.diversity)
        #expect(quiet.firstDayCTR > newest.firstDayCTR)
        #expect((0...1).contains(exploring.stability))
    }

    @Test func positionBiasLowersEveryClickThrough() {
        let eval = Self.small
        let flat = eval.simulate(.shipped, drift: false, model: .everyPlace)
        let biased = eval.simulate(.shipped, drift: false, model: .positionBias)
        #expect(biased.ctr < flat.ctr)
    }

    @Test func alsoViewedFindsTheNextStoreMoreOftenThanPopularity() {
        let hits = RecommenderEval().alsoViewedHitRate()
        #expect(hits.alsoViewed > hits.popular)
    }

    @Test func theTargetsTableHasARowPerPolicyBesideTheFeedBefore46() {
        var eval = RecommenderEval()
        eval.viewers = 20
        let policy = RecommenderEval.Policy.learning(halfLifeDays: 2, explorePlaces: 10)
        let lines = eval.targetsReport([policy], longRun: false).split(separator: "\n")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[2].hasPrefix("| before #46 |") && lines[3].hasPrefix("| \(policy) |"))
        #expect(RecommenderEval.candidates.first == policy)
    }

    @Test func decayHalvesPerHalfLifeAndNeverGrows() {
        let start = Date(timeIntervalSince1970: 0)
        #expect(Decay.decayed(8, from: start, to: start.addingTimeInterval(2 * 3600), halfLife: 3600) == 2)
        #expect(Decay.decayed(8, from: start, to: start.addingTimeInterval(-60), halfLife: 3600) == 8)
    }
}
