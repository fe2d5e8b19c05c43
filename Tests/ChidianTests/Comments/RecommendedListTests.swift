import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Where a review judged not recommended shows (issue #48): readable, listed apart by
/// `?recommended=false`, in no default list or feed; its author sees it as usual.
@Suite struct RecommendedListTests {
    @Test func theDefaultListsShowRecommendedReviewsAndFalseListsTheOthersNewestFirst() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let kept = try RecommendedFixture.id(try await world.review(4, "留下"))
            let older = try RecommendedFixture.id(try await world.review(1, "刷的一"))
            let newer = try RecommendedFixture.id(try await world.review(1, "刷的二"))
            let notice = try RecommendedFixture.id(try await world.comment(["body": "本周特价"], as: world.manager))
            try await RecommendedFixture.judge(app, older, recommended: false)
            try await RecommendedFixture.judge(app, newer, recommended: false)
            let path = "/v1/stores/\(world.storeID)/comments"
            // MUT
            let shown = try await client.send(.get, path)
            let others = try await client.send(.get, path + "?recommended=false")
            // validate
            #expect(try CommentFixture.ids(shown) == [notice, kept])
            #expect(try CommentFixture.ids(others) == [newer, older])
            #expect(try CommentFixture.items(shown).allSatisfy { $0["recommended"] as? Bool == true })
            #expect(try CommentFixture.items(others).allSatisfy { $0["recommended"] as? Bool == false })
            for sort in ["rating", "helpful"] {
                #expect(try CommentFixture.ids(try await client.send(.get, path + "?sort=\(sort)")).count == 2)
                #expect(
                    try CommentFixture.ids(try await client.send(.get, path + "?kind=review&sort=\(sort)")) == [kept])
            }
            #expect(try CommentFixture.ids(try await client.send(.get, path + "?recommended=true")) == [notice, kept])
            #expect(
                try CommentFixture.ids(try await client.send(.get, path + "?recommended=false&kind=notice")).isEmpty)
            // paging walks the others too
            let walked = try await CommentFixture.walk(client, path + "?recommended=false", limit: 1)
            #expect(walked.ids == [newer, older])
            // readable on its own, and its author sees it in their list
            let opened = try await client.send(.get, "/v1/comments/\(older)?track=false")
            #expect(opened.status == .ok)
            #expect(try opened.json()["recommended"] as? Bool == false)
            let mine = try await client.send(.get, "/v1/me/comments", token: world.user.token)
            #expect(Set(try CommentFixture.ids(mine)) == [kept, older, newer])
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 2)
        }
    }

    @Test func anyOtherValueIsRefused() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            for value in ["no", "0", "FALSE", "", "true,false"] {
                // MUT
                let response = try await client.send(
                    .get, "/v1/stores/\(world.storeID)/comments?recommended=\(value)")
                // validate
                #expect(response.status == .badRequest, "\(value)")
                #expect(response.problemCode == "invalid_recommended", "\(value)")
            }
            let unknown = try await client.send(.get, "/v1/stores/s_missing/comments?recommended=false")
            #expect(unknown.problemCode == "store_not_found")
        }
    }

    @Test func aReviewNotRecommendedLeavesTheFeeds() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let follower = try await client.register("粉丝")
            #expect(
                try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: follower.token).status
                    == .noContent)
            let kept = try RecommendedFixture.id(try await world.review(4, "留下"))
            let judged = try RecommendedFixture.id(try await world.review(5, "刷的"))
            // MUT
            try await RecommendedFixture.judge(app, judged, recommended: false)
            // validate
            let following = try await client.send(.get, "/v1/feed/following", token: follower.token)
            #expect(try CommentFixture.ids(following) == [kept])
            let featured = try await client.send(.get, "/v1/feed/featured")
            #expect(try CommentFixture.ids(featured) == [kept])
            let user = try await client.send(.get, "/v1/users/\(world.user.id)/comments")
            #expect(try CommentFixture.ids(user) == [kept])
            let own = try await client.send(.get, "/v1/users/\(world.user.id)/comments", token: world.user.token)
            #expect(try CommentFixture.ids(own) == [judged, kept])
        }
    }

    @Test func theAuthorsExportHasTheVerdictButNotTheJudgesScore() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(try await world.review(1, "刷的"))
            _ = try await app.database.query("SELECT trust_machine_verdict(\(id), false, 0.9)")
            // MUT
            let response = try await client.send(.get, "/v1/me/export", token: world.user.token)
            // validate
            let entries = try ZipReading.entries(Array(response.body.readableBytesView))
            let data = try #require(entries.first { $0.name == "data.json" }?.bytes)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
            let reviews = try #require((json["sections"] as? [String: [[String: Any]]])?["reviews"])
            #expect(reviews.count == 1)
            #expect(reviews.first?["recommended"] as? Bool == false)
            #expect(reviews.first?.keys.contains("trust_score") == false)
        }
    }

    @Test func trustOffIsReadAndOtherValuesStopStartUp() throws {
        #expect(try AppConfiguration.fromEnvironment([:]).trustEnabled)
        #expect(try AppConfiguration.fromEnvironment(["TRUST": "on"]).trustEnabled)
        #expect(try !AppConfiguration.fromEnvironment(["TRUST": "off"]).trustEnabled)
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["TRUST": "maybe"]) }
    }
}
