import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A review judged not recommended leaves every aggregate of its store, as an older review by its author does,
/// and comes back when judged recommended again: in the same transaction, exactly (issue #48).
@Suite struct RecommendedAggregateTests {
    @Test func aVerdictMovesEveryAggregateBothWaysExactly() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let other = try await client.register("第二位")
            let judged = try await world.comment(
                [
                    "rating": 5, "body": "毛肚很新鲜", "scores": ["taste": 5, "environment": 4, "service": 5],
                    "pricePerPerson": 100,
                ], as: world.user)
            _ = try await world.comment(
                ["rating": 3, "body": "一般", "scores": ["taste": 2], "pricePerPerson": 50], as: other)
            let before = try await RecommendedFixture.store(client, world.storeID)
            let keptBefore = try await RecommendedFixture.kept(app, world.storeID)
            #expect(before.rating.count == 2 && before.dishes.map(\.name) == ["毛肚"])
            // MUT
            try await RecommendedFixture.judge(app, try RecommendedFixture.id(judged), recommended: false)
            // validate: only the other review counts
            let without = try await RecommendedFixture.store(client, world.storeID)
            #expect(without.rating.count == 1 && without.rating.average == 3)
            #expect(without.scores == .init(taste: 2, environment: nil, service: nil))
            #expect(without.pricePerPerson == 50)
            #expect(without.dishes.isEmpty)
            #expect(without.notRecommendedCount == 1)
            try await RecommendedFixture.expectExact(app, world.storeID)
            // MUT: and back
            try await RecommendedFixture.judge(app, try RecommendedFixture.id(judged), recommended: true)
            // validate: every figure as before
            let again = try await RecommendedFixture.store(client, world.storeID)
            #expect(again.rating == before.rating && again.scores == before.scores)
            #expect(again.pricePerPerson == 75 && again.dishes == before.dishes && again.notRecommendedCount == 0)
            #expect(try await RecommendedFixture.kept(app, world.storeID) == keptBefore)
            let recounted = try await RecommendedFixture.recounted(app, world.storeID)
            #expect(recounted == keptBefore)
        }
    }

    @Test func theAuthorsEarlierRecommendedReviewCountsWhileTheirLatestIsNot() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            _ = try await world.comment(["rating": 2, "body": "第一次", "pricePerPerson": 40], as: world.user)
            let latest = try await world.comment(["rating": 5, "body": "第二次", "pricePerPerson": 90], as: world.user)
            let counted = try await RecommendedFixture.store(client, world.storeID)
            #expect(counted.rating.count == 1 && counted.rating.average == 5 && counted.pricePerPerson == 90)
            // MUT
            try await RecommendedFixture.judge(app, try RecommendedFixture.id(latest), recommended: false)
            // validate: the earlier review is the author's counted one again
            let earlier = try await RecommendedFixture.store(client, world.storeID)
            #expect(earlier.rating.count == 1 && earlier.rating.average == 2 && earlier.pricePerPerson == 40)
            #expect(earlier.notRecommendedCount == 1)
            try await RecommendedFixture.expectExact(app, world.storeID)
            // MUT: a new review by the same author counts over the earlier one, the judged one still apart
            _ = try await world.comment(["rating": 4, "body": "第三次"], as: world.user)
            let third = try await RecommendedFixture.store(client, world.storeID)
            #expect(third.rating.count == 1 && third.rating.average == 4 && third.pricePerPerson == nil)
            #expect(third.notRecommendedCount == 1)
            try await RecommendedFixture.expectExact(app, world.storeID)
        }
    }

    @Test func hidingOrDeletingAJudgedReviewTakesItOutOfTheCount() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let first = try RecommendedFixture.id(try await world.review(1, "甲"))
            let other = try await client.register("第二位")
            let second = try RecommendedFixture.id(try await world.review(2, "乙", as: other))
            try await RecommendedFixture.judge(app, first, recommended: false)
            try await RecommendedFixture.judge(app, second, recommended: false)
            // MUT
            _ = try await CommentModeration.hide(id: first, database: app.database)
            let response = try await client.send(.delete, "/v1/comments/\(second)", token: other.token)
            await app.settle()
            // validate
            #expect(response.status == .noContent)
            let store = try await RecommendedFixture.store(client, world.storeID)
            #expect(store.notRecommendedCount == 0 && store.rating.count == 0)
            try await RecommendedFixture.expectExact(app, world.storeID)
        }
    }

    @Test func aVerdictReachesTheCachedStoreAndItsLists() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(try await world.review(5, "好"))
            let admin = try await app.admin(client)
            // Read once, so a cache holds the store and its first page.
            #expect(try await RecommendedFixture.store(client, world.storeID).rating.count == 1)
            let listed = try await client.send(.get, "/v1/stores/\(world.storeID)/comments")
            #expect(try CommentFixture.ids(listed) == [id])
            // MUT
            let verdict = try await client.send(
                .put, "/v1/comments/\(id)/recommended", body: ["recommended": false], token: admin.token)
            // validate: what any server shows after a second; this one at once
            #expect(verdict.status == .ok)
            let store = try await RecommendedFixture.store(client, world.storeID)
            #expect(store.rating.count == 0 && store.notRecommendedCount == 1)
            let path = "/v1/stores/\(world.storeID)/comments"
            #expect(try CommentFixture.ids(try await client.send(.get, path)).isEmpty)
            #expect(try CommentFixture.ids(try await client.send(.get, path + "?recommended=false")) == [id])
            // and a verdict written beside the server, after the server heard of it
            try await RecommendedFixture.judge(app, id, recommended: true)
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 0)
            #expect(try CommentFixture.ids(try await client.send(.get, path)) == [id])
        }
    }
}
