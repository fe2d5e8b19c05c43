import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Sub-ratings (口味 / 环境 / 服务) and 人均 on reviews, their averages on the store (each author's latest live
/// review only), and the store list's `sort=price` and `maxPrice`.
@Suite struct ReviewScoresTests {
    static func store(_ client: any TestClientProtocol, _ id: String) async throws -> [String: Any] {
        try await client.send(.get, "/v1/stores/\(id)").json()
    }

    /// A comment's scores as [taste, environment, service]; nil when `scores` itself is not an object.
    static func given(_ json: [String: Any]) -> [Int?]? {
        guard let scores = json["scores"] as? [String: Any] else { return nil }
        return ["taste", "environment", "service"].map { scores[$0] as? Int }
    }

    static func scores(_ json: [String: Any]) -> [Double?] {
        let scores = json["scores"] as? [String: Any] ?? [:]
        return ["taste", "environment", "service"].map { scores[$0] as? Double }
    }

    @Test func aReviewCarriesScoresAndPriceAndTheStoreAveragesThem() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let other = try await client.register("第二位")
            // MUT
            let first = try await world.comment(
                ["rating": 5, "body": "好吃", "scores": ["taste": 5, "environment": 4], "pricePerPerson": 100],
                as: world.user)
            _ = try await world.comment(
                ["rating": 3, "body": "一般", "scores": ["taste": 2, "service": 3], "pricePerPerson": 51], as: other)
            let notice = try await world.comment(["body": "本周特价"], as: world.manager)
            // validate: the comments
            #expect(Self.given(first) == [5, 4, nil])
            #expect(first["pricePerPerson"] as? Int == 100)
            #expect(notice["scores"] is NSNull)
            #expect(notice["pricePerPerson"] is NSNull)
            // and the store: averages over the reviews that gave each, 人均 rounded
            let store = try await Self.store(client, world.storeID)
            #expect(Self.scores(store) == [3.5, 4.0, 3.0])
            #expect(store["pricePerPerson"] as? Int == 76)
            #expect((store["rating"] as? [String: Any])?["count"] as? Int == 2)
        }
    }

    @Test func badScoresAndPricesAreRefusedAndNoticesTakeNeither() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let badScores: [Any] = [
                ["taste": 6], ["taste": 0], ["taste": "5"], ["taste": 4.5], ["flavour": 4], [4, 5], "good", 5,
            ]
            for scores in badScores {
                // MUT
                let response = try await world.post(["rating": 4, "body": "x", "scores": scores], as: world.user)
                // validate
                #expect(response.problemCode == "invalid_scores", "\(scores)")
            }
            for price in [0, 100_001, -5, "50", 12.5] as [Any] {
                let response = try await world.post(
                    ["rating": 4, "body": "x", "pricePerPerson": price], as: world.user)
                #expect(response.problemCode == "invalid_price", "\(price)")
            }
            let noticeScores = try await world.post(["body": "通知", "scores": ["taste": 4]], as: world.manager)
            #expect(noticeScores.problemCode == "invalid_scores")
            let noticePrice = try await world.post(["body": "通知", "pricePerPerson": 30], as: world.manager)
            #expect(noticePrice.problemCode == "invalid_price")
            // null is "none", for a notice too
            let nulls = try await world.post(
                ["body": "通知", "scores": NSNull(), "pricePerPerson": NSNull()], as: world.manager)
            #expect(nulls.status == .created)
            // nothing refused was written
            let count = try await app.database.query("SELECT count(*)::int FROM comments")[0].decode(Int.self)
            #expect(count == 1)
        }
    }

    @Test func patchReplacesOrClearsAndAbsentLeavesAlone() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.comment(
                ["rating": 4, "body": "好吃", "scores": ["taste": 4, "service": 2], "pricePerPerson": 80], as: world.user)
            let id = review["id"] as! String
            func patch(_ body: [String: Any]) async throws -> [String: Any] {
                let response = try await client.send(.patch, "/v1/comments/\(id)", body: body, token: world.user.token)
                guard response.status == .ok else { throw TestFailure("patch: \(response.text)") }
                return try response.json()
            }
            // MUT: absent leaves both
            var edited = try await patch(["body": "还是好吃"])
            #expect(Self.given(edited) == [4, nil, 2])
            #expect(edited["pricePerPerson"] as? Int == 80)
            // an object replaces the scores
            edited = try await patch(["scores": ["environment": 5]])
            #expect(Self.given(edited) == [nil, 5, nil])
            #expect(Self.scores(try await Self.store(client, world.storeID)) == [nil, 5.0, nil])
            // null clears
            edited = try await patch(["scores": NSNull(), "pricePerPerson": NSNull()])
            #expect(Self.given(edited) == [nil, nil, nil])
            #expect(edited["pricePerPerson"] is NSNull)
            let store = try await Self.store(client, world.storeID)
            #expect(Self.scores(store) == [nil, nil, nil])
            #expect(store["pricePerPerson"] is NSNull)
            // a bad value changes nothing
            let refused = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["pricePerPerson": 0], token: world.user.token)
            #expect(refused.problemCode == "invalid_price")
        }
    }

    @Test func eachAuthorCountsOnceWithTheirLatestLiveReview() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let old = try await world.comment(
                ["rating": 5, "body": "第一次", "scores": ["taste": 5], "pricePerPerson": 200], as: world.user)
            // MUT: a second and a third review by the same author
            _ = try await world.comment(["rating": 1, "body": "第二次", "pricePerPerson": 20], as: world.user)
            let latest = try await world.comment(["rating": 2, "body": "第三次"], as: world.user)
            // validate: only the latest counts; the others stay visible
            var store = try await Self.store(client, world.storeID)
            #expect(
                (store["rating"] as? NSDictionary) == (["average": 2.0, "count": 1, "score": 19.5 / 6] as NSDictionary))
            #expect(Self.scores(store) == [nil, nil, nil])
            #expect(store["pricePerPerson"] is NSNull)
            let listed = try CommentFixture.ids(
                try await client.send(.get, "/v1/stores/\(world.storeID)/comments?limit=100"))
            #expect(listed.count == 3)
            // hiding the latest brings the one before it back
            #expect(try await CommentModeration.hide(id: latest["id"] as! String, database: app.database) == .hidden)
            await app.settle()
            store = try await Self.store(client, world.storeID)
            #expect((store["rating"] as? [String: Any])?["average"] as? Double == 1.0)
            #expect(store["pricePerPerson"] as? Int == 20)
            // stuffing by many reviews moves nothing: the first review's 5 stars are not counted
            #expect(try await CommentFixture.totals(app, storeID: world.storeID).kept == [1, 1])
            _ = old
        }
    }

    @Test func storesSortByPriceWithoutPriceLastAndFilterByMaxPrice() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            var ids: [String: String] = ["小龙坎": world.storeID]
            for name in ["便宜坊", "贵宾楼", "无价店"] {
                ids[name] = try await CommentFixture.store(
                    app, name: name, categoryID: world.categoryID, managerID: world.manager.id)
            }
            for (name, price) in [("小龙坎", 80), ("便宜坊", 30), ("贵宾楼", 300)] {
                _ = try await world.comment(
                    ["rating": 4, "body": "x", "pricePerPerson": price], as: world.user, storeID: ids[name])
            }
            let byPrice = ["便宜坊", "小龙坎", "贵宾楼", "无价店"].map { ids[$0]! }
            // MUT
            let all = try CommentFixture.ids(try await client.send(.get, "/v1/stores?sort=price"))
            let walked = try await StoreFixture.walk(client, "/v1/stores?sort=price", limit: 1)
            let cheap = try CommentFixture.ids(try await client.send(.get, "/v1/stores?sort=price&maxPrice=80"))
            let cheapByRating = try CommentFixture.ids(try await client.send(.get, "/v1/stores?maxPrice=79"))
            // validate
            #expect(all == byPrice)
            #expect(walked.ids == byPrice)
            #expect(cheap == [ids["便宜坊"]!, ids["小龙坎"]!])
            #expect(cheapByRating == [ids["便宜坊"]!])
            for bad in ["0", "100001", "abc", "1.5"] {
                let response = try await client.send(.get, "/v1/stores?maxPrice=\(bad)")
                #expect(response.problemCode == "invalid_price", "\(bad)")
            }
        }
    }
}
