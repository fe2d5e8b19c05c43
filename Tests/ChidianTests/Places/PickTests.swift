import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// `GET /v1/pick`: never closed, never outside the radius or budget, never skipped or lately reviewed; reasons in
/// words; and where several stores qualify, not always the same answer.
@Suite struct PickTests {
    static var alwaysOpen: [[String: Any]] { StorePlaceTests.alwaysOpen }

    /// A store near Chunxi Road with a price (through a review's 人均 written straight to the table).
    static func store(
        _ client: any TestClientProtocol, _ app: TestApp, _ manager: Session, name: String, category: String,
        lat: Double = 30.659, lng: Double = 104.081, hours: [[String: Any]]? = alwaysOpen, price: Int? = nil
    ) async throws -> String {
        var extra: [String: Any] = ["location": ["lat": lat, "lng": lng]]
        if let hours { extra["hours"] = hours }
        let id =
            try await StoreFixture.store(client, manager, name: name, categoryID: category, extra: extra).id
        if let price {
            try await app.database.query(
                "UPDATE stores SET price_count = 1, price_sum = \(price) WHERE id = \(id)")
            await app.settle()
        }
        return id
    }

    static func pickedIDs(_ response: TestResponse) throws -> [String] {
        let answer = try response.decode(PickService.Answer.self)
        return [answer.store.id] + answer.alternatives.map(\.id)
    }

    @Test func everyAnswerKeepsTheRules() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let eater = try await client.register("Eater")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let noodles = try await StoreFixture.category(app, "面馆")
            let good = try await Self.store(client, app, manager, name: "good", category: hotpot, price: 80)
            let cheap = try await Self.store(client, app, manager, name: "cheap", category: noodles, price: 20)
            let other = try await Self.store(client, app, manager, name: "other", category: hotpot, price: 60)
            let closed = try await Self.store(
                client, app, manager, name: "closed", category: hotpot, hours: [], price: 50)
            let unknownHours = try await Self.store(client, app, manager, name: "unknown", category: hotpot, hours: nil)
            let far = try await Self.store(
                client, app, manager, name: "far", category: hotpot, lat: 30.70, lng: 104.081, price: 50)
            let pricey = try await Self.store(client, app, manager, name: "pricey", category: hotpot, price: 500)
            let noPrice = try await Self.store(client, app, manager, name: "noPrice", category: hotpot)
            let reviewed = try await Self.store(client, app, manager, name: "reviewed", category: hotpot, price: 40)
            let archived = try await Self.store(client, app, manager, name: "archived", category: hotpot, price: 40)
            _ = try await client.send(.delete, "/v1/stores/\(archived)", token: manager.token)
            let review = try await client.send(
                .post, "/v1/stores/\(reviewed)/comments", body: ["rating": 5, "body": "很好吃"], token: eater.token)
            #expect(review.status == .created)
            let never: Set<String> = [closed, unknownHours, far, pricey, noPrice, reviewed, archived]
            // MUT + validate: many calls, each answer within the rules
            var seen = Set<String>()
            for n in 0..<30 {
                let response = try await client.send(
                    .get, "/v1/pick?near=30.659,104.081&radius=3000&maxPrice=100&skip=\(n % 2 == 0 ? other : "")",
                    token: eater.token)
                #expect(response.status == .ok)
                let ids = try Self.pickedIDs(response)
                #expect(Set(ids).count == ids.count, "all three distinct")
                #expect(never.isDisjoint(with: ids), "\(ids)")
                if n % 2 == 0 { #expect(!ids.contains(other), "a skipped store never comes back") }
                let body = try response.json()
                let store = try #require(body["store"] as? [String: Any])
                #expect(store["openNow"] as? Bool == true)
                #expect((store["distanceMeters"] as? Int).map { $0 <= 3000 } == true)
                #expect((store["pricePerPerson"] as? Int).map { $0 <= 100 } == true)
                let reasons = try #require(body["reasons"] as? [[String: String]])
                #expect(!reasons.isEmpty)
                #expect(
                    reasons.allSatisfy {
                        PickReason.Kind(rawValue: $0["kind"] ?? "") != nil && !($0["text"] ?? "").isEmpty
                    })
                seen.formUnion(ids)
            }
            #expect(seen == [good, cheap, other])
            // The category narrows; the reviewer's own review only hides the store from them.
            let inNoodles = try await client.send(.get, "/v1/pick?category=\(noodles)&near=30.659,104.081")
            #expect(try Self.pickedIDs(inNoodles) == [cheap])
            var anonymous = Set<String>()
            for _ in 0..<40 {
                anonymous.formUnion(try Self.pickedIDs(try await client.send(.get, "/v1/pick?near=30.659,104.081")))
            }
            #expect(anonymous.contains(reviewed), "another viewer may get the store Eater reviewed")
        }
    }

    @Test func repeatedCallsDoNotAlwaysAnswerTheSameStore() async throws {
        try await TestApp.run { client, app in
            // setup: one clearly better store and one plain one
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let best = try await Self.store(client, app, manager, name: "best", category: hotpot)
            let plain = try await Self.store(client, app, manager, name: "plain", category: hotpot)
            let critic = try await client.register("Critic")
            try await StoreFixture.review(
                app, storeID: best, authorID: critic.id, ratings: Array(repeating: 5, count: 30))
            await app.settle()
            // MUT: with exploration at 30 % (and the noise), `plain` is first in about a third of the calls: 100 calls
            // without it have a chance near 3e-17, and `best` first in at most 40 of them a chance near 1e-9.
            var first: [String: Int] = [:]
            for _ in 0..<100 {
                let response = try await client.send(.get, "/v1/pick?near=30.659,104.081")
                first[try Self.pickedIDs(response)[0], default: 0] += 1
            }
            // validate
            #expect(first.keys.count == 2, "\(first)")
            #expect((first[best] ?? 0) > 40, "the better store is still picked more often: \(first)")
            #expect((first[plain] ?? 0) >= 1)
        }
    }

    /// Issue 30: the last alternative explores a category the viewer has not shown (the bandit's choice), so a
    /// viewer whose habit outranks everything else still sees something new on every answer.
    @Test func anAlternativeExploresACategoryTheViewerHasNotShown() async throws {
        try await TestApp.run { client, app in
            // setup: four excellent hot-pot stores, one plain dessert shop; the viewer favorites hot pot
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let sweets = try await StoreFixture.category(app, "甜品")
            let critic = try await client.register("Critic")
            var hotpots: [String] = []
            for i in 0..<4 {
                let id = try await Self.store(client, app, manager, name: "锅\(i)", category: hotpot)
                try await StoreFixture.review(
                    app, storeID: id, authorID: critic.id, ratings: Array(repeating: 5, count: 10))
                hotpots.append(id)
            }
            let dessert = try await Self.store(client, app, manager, name: "糖水", category: sweets)
            try await StoreFixture.review(app, storeID: dessert, authorID: critic.id, ratings: [3])
            await app.settle()
            let eater = try await client.register("Eater")
            _ = try await client.send(.put, "/v1/stores/\(hotpots[0])/favorite", token: eater.token)
            try await app.flushSignals()
            // MUT
            var answers: [[String]] = []
            for _ in 0..<20 {
                answers.append(
                    try Self.pickedIDs(try await client.send(.get, "/v1/pick?near=30.659,104.081", token: eater.token)))
            }
            // validate: the dessert shop in every answer (first when the call explored, else the last alternative)
            #expect(answers.allSatisfy { $0.count == 3 && $0.contains(dessert) }, "\(answers)")
            #expect(answers.contains { $0.last == dessert })
        }
    }

    @Test func nothingQualifyingIsNotFound() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let closed = try await Self.store(client, app, manager, name: "closed", category: hotpot, hours: [])
            let open = try await Self.store(client, app, manager, name: "open", category: hotpot)
            // MUT
            let skippedAll = try await client.send(.get, "/v1/pick?skip=\(open)")
            let farAway = try await client.send(.get, "/v1/pick?near=39.9,116.4&radius=50000")
            let unknownCategory = try await client.send(.get, "/v1/pick?category=k_nope")
            // validate
            #expect(skippedAll.status == .notFound)
            #expect(try skippedAll.json()["code"] as? String == "nothing_to_pick")
            #expect(try farAway.json()["code"] as? String == "nothing_to_pick")
            #expect(unknownCategory.status == .badRequest)
            #expect(try unknownCategory.json()["code"] as? String == "unknown_category")
            _ = closed
        }
    }

    @Test func reasonsSpeakTheViewersLanguage() async throws {
        try await TestApp.run { client, app in
            // setup: the viewer opens hot-pot reviews, so 你常看火锅
            let manager = try await client.register("Boss", role: "manager")
            let eater = try await client.register("Eater")
            let hotpot = try await StoreFixture.category(app, "火锅")
            let id = try await Self.store(client, app, manager, name: "蜀香", category: hotpot)
            let critic = try await client.register("Critic")
            try await StoreFixture.review(app, storeID: id, authorID: critic.id, ratings: [5, 4, 5])
            try await app.database.query("UPDATE stores SET price_count = 1, price_sum = 97 WHERE id = \(id)")
            await app.settle()
            let comments = try await app.database.query("SELECT id FROM comments WHERE store_id = \(id)")
            for row in comments {
                let commentID = try row.decode(String.self)
                _ = try await client.send(.get, "/v1/comments/\(commentID)", token: eater.token)
            }
            try await app.flushSignals()
            // MUT
            let chinese = try await client.send(.get, "/v1/pick?near=30.6635,104.081", token: eater.token)
            let english = try await client.send(
                .get, "/v1/pick?near=30.6635,104.081", token: eater.token,
                headers: [.acceptLanguage: "en-US,en;q=0.9"])
            // validate
            let texts = try chinese.decode(PickService.Answer.self).reasons.map(\.text)
            #expect(texts.contains("你常看火锅"), "\(texts)")
            #expect(texts.contains("500 m"), "\(texts)")
            #expect(texts.contains("24 小时营业"))
            #expect(texts.contains("人均 ¥97"))
            #expect(texts.contains("4.7 分"))
            let englishTexts = try english.decode(PickService.Answer.self).reasons.map(\.text)
            #expect(englishTexts.contains("You often look at 火锅"), "\(englishTexts)")
            #expect(englishTexts.contains("¥97 per person"))
        }
    }

    @Test func reasonTexts() {
        #expect(PickReasons.distance(804) == "800 m")
        #expect(PickReasons.distance(1249) == "1.2 km")
        #expect(PickReasons.distance(12_960) == "13.0 km")
        #expect(PickReasons.rating(4.56) == "4.6")
    }
}
