import Foundation
import Testing

@testable import ChidianCore

/// Hot paths written out by hand in place of Foundation's and the standard library's generic code (issue #45: a
/// featured page spent a tenth of its CPU encoding its cursor and a seventh drawing uniform numbers): each must
/// give exactly what it replaced.
@Suite struct HandWrittenEquivalenceTests {
    static func encoderToken(_ cursor: Cursor) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(cursor).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func cursorTokensAreTheBytesJSONEncoderWrites() throws {
        // setup: every control character, the characters JSON escapes, slashes, CJK and emoji, and lengths that
        // leave each base64 remainder
        var texts = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["\"", "\\", "/", "a/b", "火锅|3.5", "🍜", "2026-01-31 12:00:00.123456+00", "", "x", "xy", "xyz"]
        var generator = SeededRandom(seed: 45)
        let alphabet = Array("ab/\\\"\n\t\u{7}中😀 |")
        for _ in 0..<200 {
            let length = Int(generator.next() % 12)
            texts.append(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        }
        for (index, text) in texts.enumerated() {
            let cursor = Cursor(list: index % 2 == 0 ? "feed" : text, keys: Array(texts[index...].prefix(index % 4)))
            // MUT: the hand-written token
            let token = cursor.token
            // validate
            #expect(token == (try Self.encoderToken(cursor)), "\(text.unicodeScalars.map(\.value))")
            #expect(try Cursor(token: token) == cursor)
        }
    }

    @Test func uniformDrawsAreTheStandardLibrarys() {
        for lower in [0, Double.ulpOfOne, 0.25] {
            var mine = SeededRandom(seed: 7)
            var theirs = SeededRandom(seed: 7)
            for draw in 0..<20_000 {
                // MUT: the written-out draw
                let a = BetaSample.uniform(from: lower, using: &mine)
                // validate: the same value, and the generators still in step
                let b = Double.random(in: lower..<1, using: &theirs)
                #expect(a == b, "draw \(draw) from \(lower)")
                if a != b { return }
            }
            #expect(mine.next() == theirs.next())
        }
    }

    /// Marsaglia and Tsang's Gamma draw without its squeeze: what `BetaSample.gamma` computed before it took one.
    static func gammaWithoutSqueeze(_ shape: Double, using generator: inout SeededRandom) -> Double {
        if shape < 1 {
            let u = BetaSample.uniform(from: Double.ulpOfOne, using: &generator)
            return gammaWithoutSqueeze(shape + 1, using: &generator) * pow(u, 1 / shape)
        }
        let d = shape - 1.0 / 3
        let c = 1 / (9 * d).squareRoot()
        while true {
            var x = 0.0
            var v = 0.0
            repeat {
                x = BetaSample.normal(using: &generator)
                v = 1 + c * x
            } while v <= 0
            v = v * v * v
            let u = BetaSample.uniform(from: Double.ulpOfOne, using: &generator)
            if log(u) < 0.5 * x * x + d - d * v + d * log(v) { return d * v }
        }
    }

    @Test func gammaDrawsWithTheSqueezeAreTheDrawsWithout() {
        // setup: shapes from a faded showing to a popular category's counts (the posteriors' range)
        for shape in [1e-3, 0.3, 0.999, 1, 1.5, 2.7, 8, 15.9, 40, 300, 12_000] {
            var mine = SeededRandom(seed: 46)
            var theirs = SeededRandom(seed: 46)
            for draw in 0..<50_000 {
                // MUT
                let a = BetaSample.gamma(shape, using: &mine)
                // validate: the same value, and the generators still in step
                let b = Self.gammaWithoutSqueeze(shape, using: &theirs)
                #expect(a == b, "draw \(draw) of shape \(shape)")
                if a != b { return }
            }
            #expect(mine.next() == theirs.next())
        }
    }

    /// Candidates with few distinct values, so worths tie and ids decide; categories in runs, and some repeated
    /// later (as near me's candidates interleave).
    static func candidates(_ generator: inout SeededRandom, categories: Int = 9) -> [FeedCandidates.Review] {
        (0..<(40 + Int(generator.next() % 120))).map { index in
            let run = index / (1 + Int(generator.next() % 8))
            return FeedCandidates.Review(
                id: "m\(generator.next() % 500)", categoryID: "c\(run % categories)", likes: Int(generator.next() % 3),
                rating: 3 + Int(generator.next() % 3), ageDays: Double(generator.next() % 4),
                storeRating: 3.5 + Double(generator.next() % 2), distance: Double(generator.next() % 3) * 100)
        }
    }

    @Test func coldStartRanksIndicesAsItRankedReviews() {
        var generator = SeededRandom(seed: 46)
        for round in 0..<300 {
            // three categories leave cold start short of ten without the fourth of each; four just fill it
            let reviews = Self.candidates(&generator, categories: [9, 3, 4][round % 3])
            let weights = Dictionary(uniqueKeysWithValues: (0..<9).map { ("c\($0)", Double(generator.next() % 4) / 8) })
            let radius: Double? = round % 2 == 0 ? nil : 250
            // MUT: ranking each category's heads, or all when they fall short
            let order = FeedPlanner.coldStart(reviews, categoryWeights: weights, radius: radius)
            // validate: what sorting (review, worth) pairs and capping reviews gave
            let ranked = reviews.map {
                ($0, FeedPlanner.worth($0, categoryWeight: weights[$0.categoryID] ?? 0, radius: radius))
            }
            .sorted { ($0.1, $0.0.id) > ($1.1, $1.0.id) }.map(\.0)
            let expected = FeedPlanner.diverse(ranked, category: \.categoryID, id: \.id, count: FeedPlanner.coldPlaces)
            #expect(order == expected, "round \(round)")
        }
    }

    @Test func aMixedPagesPoolGivesEachCategorysBestInTurn() {
        var generator = SeededRandom(seed: 47)
        for round in 0..<300 {
            let reviews = Self.candidates(&generator)
            // MUT: the pool of runs
            var pool = FeedCandidates.Pool(reviews, radius: round % 2 == 0 ? nil : 250)
            // validate: a list per category from the ranked reviews, taken from the front
            var lists: [String: [String]] = [:]
            let ranked = reviews.map {
                ($0, FeedPlanner.worth($0, categoryWeight: 0, radius: round % 2 == 0 ? nil : 250))
            }
            .sorted { ($0.1, $0.0.id) > ($1.1, $1.0.id) }
            for (review, _) in ranked { lists[review.categoryID, default: []].append(review.id) }
            for _ in 0..<40 {
                let category = "c\(generator.next() % 10)"
                let expected = lists[category]?.first
                if expected != nil { lists[category]?.removeFirst() }
                #expect(pool.next(of: category).map { reviews[$0].id } == expected, "round \(round), \(category)")
            }
        }
    }

    @Test func forYouRanksIndicesAsItRankedCandidates() {
        var generator = SeededRandom(seed: 48)
        for round in 0..<300 {
            // setup: candidates with tied worths, some favourited or reviewed, a few categories
            let candidates = (0..<(20 + Int(generator.next() % 180))).map { index in
                StoreFeed.Candidate(
                    id: "s\(index)-\(generator.next() % 7)", categoryID: "c\(generator.next() % 5)",
                    ratingScore: 3 + Double(generator.next() % 3) / 2, favoriteCount: Int(generator.next() % 3),
                    distance: round % 2 == 0 ? nil : Double(generator.next() % 4) * 500,
                    covisits: Int(generator.next() % 4), favorited: generator.next() % 9 == 0,
                    reviewedLately: generator.next() % 11 == 0)
            }
            let interests = ["c0": 1.0, "c1": 0.5, "c3": 0.25]
            let radius: Double? = round % 2 == 0 ? nil : 2000
            let limit = [5, 10, 20, 50][round % 4]
            // MUT: ranking by index
            let ranked = StoreFeed.rank(candidates, interests: interests, radius: radius, limit: limit)
            // validate: ranking copies of the candidates, as before
            let fresh = candidates.filter { !$0.known }
            let most = fresh.map(\.covisits).max() ?? 0
            let worths = fresh.map {
                StoreFeed.worth($0, interests: interests, maxCovisits: most, radius: radius)
            }
            let sorted = fresh.indices.sorted { a, b in
                worths[a] != worths[b] ? worths[a] > worths[b] : fresh[a].id > fresh[b].id
            }.map { fresh[$0] }
            let head = FeedPlanner.diverse(
                sorted, category: \.categoryID, id: \.id, count: min(limit, FeedPlanner.coldPlaces))
            let chosen = Set(head)
            let expected = head + sorted.map(\.id).filter { !chosen.contains($0) }.prefix(max(0, limit - head.count))
            #expect(ranked == expected, "round \(round)")
        }
    }

    /// `PickRanking.choose` as it was before it ranked indices: the reference.
    static func chooseCopies<G: RandomNumberGenerator>(
        _ ranking: PickRanking, _ candidates: [StoreCandidates.Candidate], count: Int, using generator: inout G
    ) -> (ranked: [StoreCandidates.Candidate], explored: Bool) {
        var keyed = candidates.map { candidate -> (StoreCandidates.Candidate, Double) in
            let uniform = BetaSample.uniform(from: Double.ulpOfOne, using: &generator)
            return (candidate, ranking.score(candidate) - PickRanking.temperature * log(-log(uniform)))
        }
        keyed.sort { $0.1 > $1.1 }
        var ranked = keyed.map(\.0)
        let present = Set(ranked.map(\.categoryID))
        let arms = ranking.unshown.filter { present.contains($0.categoryID) }
        let explore = Exploration.choose(arms, count: 1, using: &generator).first
        var explored = false
        if ranked.count >= 2, BetaSample.uniform(from: 0, using: &generator) < PickRanking.exploration {
            let index =
                explore.flatMap { category in ranked.indices.dropFirst().first { ranked[$0].categoryID == category } }
                ?? Int.random(in: 1..<ranked.count, using: &generator)
            ranked.insert(ranked.remove(at: index), at: 0)
            explored = true
        } else if let explore, ranked.count > count,
            !ranked.prefix(count).contains(where: { $0.categoryID == explore }),
            let index = ranked.firstIndex(where: { $0.categoryID == explore })
        {
            ranked.insert(ranked.remove(at: index), at: count - 1)
        }
        return (Array(ranked.prefix(count)), explored)
    }

    @Test func thePickRanksIndicesAsItRankedCandidates() {
        var generator = SeededRandom(seed: 45)
        var explored = 0
        for round in 0..<400 {
            // setup: pools of 1 to 120 with tied scores, a few categories, some unshown to the viewer
            let candidates = (0..<(1 + Int(generator.next() % 120))).map { index in
                StoreCandidates.Candidate(
                    id: "s\(index)", categoryID: "c\(generator.next() % 6)",
                    ratingScore: 3 + Double(generator.next() % 3) / 2, favoriteCount: Int(generator.next() % 3),
                    distance: Double(generator.next() % 4) * 500, covisits: Int(generator.next() % 4),
                    favorited: generator.next() % 9 == 0, reviewedLately: false)
            }
            let unshown = (0..<Int(generator.next() % 4)).map { arm in
                Exploration.Arm(
                    categoryID: "c\(3 + arm)", shown: Double(generator.next() % 5), clicked: 0, globalShown: 10,
                    globalClicked: Int(generator.next() % 3))
            }
            let ranking = PickRanking(
                interests: ["c0": 1, "c1": 0.5], radius: round % 3 == 0 ? nil : 2000, unshown: unshown)
            let count = [1, 3, 5][round % 3]
            var mine = SeededRandom(seed: UInt64(round))
            var theirs = SeededRandom(seed: UInt64(round))
            // MUT
            let chosen = ranking.choose(candidates, count: count, using: &mine)
            // validate: the same stores, the same flag, and the same draws taken
            let expected = Self.chooseCopies(ranking, candidates, count: count, using: &theirs)
            #expect(chosen.ranked == expected.ranked, "round \(round)")
            #expect(chosen.explored == expected.explored, "round \(round)")
            #expect(mine.next() == theirs.next(), "round \(round)")
            if chosen.explored { explored += 1 }
        }
        #expect(explored > 50, "both branches ran")
    }
}
