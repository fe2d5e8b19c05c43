import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The store's rating_count and rating_sum always equal the count and sum of each author's latest live review.
@Suite struct CommentRatingTotalsTests {
    @Test func totalsFollowCreateEditDeleteAndHide() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            func totals() async throws -> (kept: [Int], live: [Int]) {
                try await CommentFixture.totals(app, storeID: world.storeID)
            }
            // create
            let other = try await client.register("第二位食客")
            let a = try await world.review(5)["id"] as! String
            let c = try await world.review(3, "另一位", as: other)["id"] as! String
            _ = try await world.comment(["body": "通知不计分"], as: world.manager)
            var now = try await totals()
            #expect(now.kept == [2, 8])
            #expect(now.kept == now.live)
            // a second review by the same author replaces their first in the totals
            let b = try await world.review(2)["id"] as! String
            now = try await totals()
            #expect(now.kept == [2, 5])
            #expect(now.kept == now.live)
            // edit
            _ = try await client.send(.patch, "/v1/comments/\(b)", body: ["rating": 4], token: world.user.token)
            now = try await totals()
            #expect(now.kept == [2, 7])
            #expect(now.kept == now.live)
            // hide the other author's: out
            #expect(try await CommentModeration.hide(id: c, database: app.database) == .hidden)
            now = try await totals()
            #expect(now.kept == [1, 4])
            #expect(now.kept == now.live)
            // hiding again changes nothing
            #expect(try await CommentModeration.hide(id: c, database: app.database) == .alreadyHidden)
            #expect(try await totals().kept == [1, 4])
            // delete the latest: the author's earlier review counts again
            let deleted = try await client.send(.delete, "/v1/comments/\(b)", token: world.user.token)
            #expect(deleted.status == .noContent)
            now = try await totals()
            #expect(now.kept == [1, 5])
            #expect(now.kept == now.live)
            // and its deletion leaves nothing
            #expect(try await client.send(.delete, "/v1/comments/\(a)", token: world.user.token).status == .noContent)
            now = try await totals()
            #expect(now.kept == [0, 0])
            #expect(now.kept == now.live)
        }
    }

    @Test func refusedWritesLeaveTotalsAlone() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            _ = try await world.post(["rating": 5, "body": "x", "imageIds": ["i_missing"]], as: world.user)
            _ = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 5, "imageIds": ["i_missing"]], token: world.user.token)
            _ = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 1], token: world.user.token, headers: [.ifMatch: "\"9\""]
            )
            let totals = try await CommentFixture.totals(app, storeID: world.storeID)
            #expect(totals.kept == [1, 3])
            #expect(totals.kept == totals.live)
        }
    }
}
