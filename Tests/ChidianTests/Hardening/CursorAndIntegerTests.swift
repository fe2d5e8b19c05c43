import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Issue 18: every cursor checked the same way before it reaches SQL, and JSON integers that are integers.
@Suite struct CursorAndIntegerTests {
    static func token(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func forgedCursorsAreInvalidOnEveryList() async throws {
        try await TestApp.run { client, app in
            let scene = try await HostileInputTests.Scene.make(client, app)
            let store = scene.storeID
            let categories = (0..<21).map { "\"c_\($0)|1.5\"" }.joined(separator: ",")
            let cases: [(String, String)] = [
                // the issue's 500: a date that is not one
                ("/v1/feed/featured", #"{"list":"feed","keys":["0","not-a-date","x"]}"#),
                ("/v1/feed/featured", #"{"list":"feed","keys":["0","2026-02-30 10:00:00+00","x"]}"#),
                ("/v1/feed/featured", #"{"list":"feed","keys":["5","2026-01-01 10:00:00+00","x","c_1|1"]}"#),
                ("/v1/feed/featured", #"{"list":"feed","keys":["0","2026-01-01 10:00:00+00","x","c_1|nan"]}"#),
                ("/v1/feed/featured", #"{"list":"feed","keys":["0","2026-01-01 10:00:00+00","x","c_1|1","c_1|1"]}"#),
                // more categories than a walk ever freezes: the 9,000-statement cursor
                ("/v1/feed/featured", #"{"list":"feed","keys":["0","2026-01-01 10:00:00+00","x",\#(categories)]}"#),
                ("/v1/feed/featured", #"{"list":"stores.newest","keys":["2026-01-01 10:00:00+00","x"]}"#),
                ("/v1/stores?sort=newest", #"{"list":"stores.newest","keys":["yesterday","x"]}"#),
                ("/v1/stores?sort=newest", #"{"list":"stores.newest","keys":["2026-01-01 25:00:00+00","x"]}"#),
                ("/v1/stores?sort=rating", #"{"list":"stores.rating","keys":["0x1p3","x"]}"#),
                ("/v1/stores?sort=rating", #"{"list":"stores.rating","keys":["3.5"]}"#),
                ("/v1/stores?sort=popular", #"{"list":"stores.popular","keys":["1.5","x"]}"#),
                ("/v1/stores?sort=name", #"{"list":"stores.name","keys":[7,"x"]}"#),
                (
                    "/v1/stores/\(store)/comments",
                    #"{"list":"store-comments.newest","keys":["2026-13-01 10:00:00+00","x"]}"#
                ),
                (
                    "/v1/stores/\(store)/comments?sort=rating",
                    #"{"list":"store-comments.rating","keys":["9","2026-01-01 10:00:00+00","x"]}"#
                ),
                ("/v1/search?q=hot", #"{"list":"search","keys":["hot","0","-1","1.0","x"]}"#),
                ("/v1/stores/\(store)/promotions", #"{"list":"promotions","keys":["","x"]}"#),
                ("/v1/stores", "not.base64!!"),
                ("/v1/stores", String(repeating: "A", count: 5000)),
            ]
            for (path, json) in cases {
                let cursor = json.hasPrefix("{") ? Self.token(json) : json
                let separator = path.contains("?") ? "&" : "?"
                // MUT
                let response = try await client.send(
                    .get, path + separator + "cursor=" + cursor, token: scene.manager.token)
                // validate
                #expect(response.status == .badRequest, "\(path) \(json.prefix(80)): \(response.status)")
                #expect(
                    response.problemCode == "invalid_cursor", "\(path) \(json.prefix(80)): \(response.text.prefix(200))"
                )
            }
        }
    }

    @Test func cursorsTheServerIssuesStillWalkEveryList() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Walker", role: "manager")
            let categoryID = try await StoreFixture.category(app, "茶")
            for i in 0..<5 {
                _ = try await StoreFixture.store(client, manager, name: "Tea \(i) 茶馆", categoryID: categoryID)
            }
            for sort in ["newest", "rating", "name", "popular"] {
                let walk = try await StoreFixture.walk(client, "/v1/stores?sort=\(sort)", limit: 2)
                #expect(Set(walk.ids).count == 5, "\(sort)")
                #expect(walk.pages == 3, "\(sort)")
            }
        }
    }

    @Test func theFeedFreezesAtMostTwentyCategoriesAndStillWalksEveryReview() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Many", role: "manager")
            let viewer = try await client.register("Clicker")
            var reviews: [String] = []
            for i in 0..<24 {
                let categoryID = try await StoreFixture.category(app, "类\(i)")
                let storeID =
                    try await StoreFixture.store(client, manager, name: "Store \(i)", categoryID: categoryID).id
                let review = try await client.send(
                    .post, "/v1/stores/\(storeID)/comments", body: ["rating": 4, "body": "fine \(i)"],
                    token: viewer.token)
                reviews.append(try #require(review.json()["id"] as? String))
            }
            for id in reviews { _ = try await client.send(.get, "/v1/comments/\(id)", token: viewer.token) }
            try await app.flushSignals()
            // MUT
            let first = try await client.send(.get, "/v1/feed/featured?limit=3", token: viewer.token)
            // validate
            let personalization = try #require(first.json()["personalization"] as? [String: Any])
            #expect((personalization["categories"] as? [Any])?.count == FeedRepository.maxCategories)
            let walk = try await StoreFixture.walk(client, "/v1/feed/featured?", limit: 3, token: viewer.token)
            #expect(walk.ids.count == 24)
            #expect(Set(walk.ids) == Set(reviews))
        }
    }

    @Test func integersWrittenWithAFractionOrExponentOrAsTextAreTheFieldsError() async throws {
        try await TestApp.run { client, app in
            let scene = try await HostileInputTests.Scene.make(client, app)
            let eater = try await client.register("Second")
            for literal in ["5.0", "5e0", "5E0", "\"5\"", "4.5", "50e-1"] {
                // MUT
                let create = try await client.sendRaw(
                    .post, "/v1/stores/\(scene.storeID)/comments", body: #"{"rating": \#(literal), "body": "x"}"#,
                    token: eater.token)
                let edit = try await client.sendRaw(
                    .patch, "/v1/comments/\(scene.reviewID)", body: #"{"rating": \#(literal)}"#, token: scene.user.token
                )
                let buy = try await client.sendRaw(
                    .post, "/v1/stores/\(scene.storeID)/promotions", body: #"{"amount": \#(literal)}"#,
                    token: scene.manager.token)
                // validate
                #expect(create.problemCode == "invalid_rating", "\(literal): \(create.text)")
                #expect(edit.problemCode == "invalid_rating", "\(literal): \(edit.text)")
                #expect(buy.problemCode == "invalid_amount", "\(literal): \(buy.text)")
            }
            for literal in ["5.0", "5e0"] {
                let limit = try await client.send(.get, "/v1/stores?limit=\(literal)")
                #expect(limit.problemCode == "invalid_limit")
            }
            // the plain integer still works, also when another field holds a fraction
            let ok = try await client.sendRaw(
                .post, "/v1/stores/\(scene.storeID)/comments",
                body: #"{"extra": {"rating": 1.5}, "rating": 5, "body": "x"}"#,
                token: eater.token)
            #expect(ok.status == .created, "\(ok.text)")
            #expect(try await app.database.query("SELECT count(*)::int FROM promotions")[0].decode(Int.self) == 0)
        }
    }

    @Test func theNumberScanFindsNonIntegerLiteralsByPath() {
        let numbers = JSONNumbers(
            scanning: Array(#"{"a": 1, "b": [2, 3.0, {"c\u0041": 4e1}], "d": "5.0", "e": -0.5}"#.utf8))
        #expect(numbers.paths == [[.key("b"), .index(1)], [.key("b"), .index(2), .key("cA")], [.key("e")]])
    }
}
