import Foundation
import Testing

@testable import Chidian

@Suite struct RecommenderEvalTests {
    @Test func decayBeatsRawCountsUnderDriftAndIsDeterministic() {
        var eval = RecommenderEval()
        eval.viewers = 60
        eval.days = 42
        eval.halfLivesInDays = [7]
        let drifting = eval.run(drift: true)
        let fixed = eval.run(drift: false)
        #expect(drifting[.decayed(halfLifeDays: 7)]! > drifting[.rawCounts]!)
        #expect(fixed[.decayed(halfLifeDays: 7)]! >= fixed[.rawCounts]! - 0.01)
        #expect(fixed[.rawCounts]! > fixed[.newest]!)
        #expect(eval.run(drift: true) == drifting)
    }

    @Test func decayHalvesPerHalfLifeAndNeverGrows() {
        let start = Date(timeIntervalSince1970: 0)
        #expect(Decay.decayed(8, from: start, to: start.addingTimeInterval(2 * 3600), halfLife: 3600) == 2)
        #expect(Decay.decayed(8, from: start, to: start.addingTimeInterval(-60), halfLife: 3600) == 8)
    }
}
