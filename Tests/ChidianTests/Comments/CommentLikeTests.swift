import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Likes (点赞): one per user per review, an exact count under concurrency, `liked` for the viewer, and the
/// `helpful` order.
@Suite struct CommentLikeTests {
    @Test func likingIsIdempotentCountedAndShownToTheViewer() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let fan = try await client.register("点赞者")
            let id = try await world.review(5)["id"] as! String
            // MUT: twice, as the same fan
            for _ in 0..<2 {
                #expect(try await client.send(.put, "/v1/comments/\(id)/like", token: fan.token).status == .noContent)
            }
            // validate
            let seen = try await client.send(.get, "/v1/comments/\(id)?track=false", token: fan.token).json()
            #expect(seen["likeCount"] as? Int == 1)
            #expect(seen["liked"] as? Bool == true)
            let anonymous = try await client.send(.get, "/v1/comments/\(id)?track=false").json()
            #expect(anonymous["liked"] as? Bool == false)
            let listed = try CommentFixture.items(
                try await client.send(.get, "/v1/stores/\(world.storeID)/comments", token: fan.token))
            #expect(listed.first?["liked"] as? Bool == true)
            let feed = try await client.send(.get, "/v1/feed/featured", token: fan.token).json()
            #expect((feed["items"] as? [[String: Any]])?.first?["liked"] as? Bool == true)
            // unliking twice leaves none
            for _ in 0..<2 {
                #expect(
                    try await client.send(.delete, "/v1/comments/\(id)/like", token: fan.token).status == .noContent)
            }
            let after = try await client.send(.get, "/v1/comments/\(id)?track=false", token: fan.token).json()
            #expect(after["likeCount"] as? Int == 0)
            #expect(after["liked"] as? Bool == false)
        }
    }

    @Test func noticesOwnReviewsAndStrangersAreRefused() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(4)["id"] as! String
            let notice = try await world.comment(["body": "本店休息"], as: world.manager)["id"] as! String
            // MUT + validate
            #expect(
                try await client.send(.put, "/v1/comments/\(notice)/like", token: world.user.token).problemCode
                    == "not_a_review")
            #expect(
                try await client.send(.put, "/v1/comments/\(review)/like", token: world.user.token).problemCode
                    == "own_comment")
            #expect(try await client.send(.put, "/v1/comments/\(review)/like").problemCode == "login_required")
            #expect(
                try await client.send(.put, "/v1/comments/m_nothing/like", token: world.manager.token).problemCode
                    == "comment_not_found")
            #expect(try await CommentModeration.hide(id: review, database: app.database) == .hidden)
            await app.settle()
            #expect(
                try await client.send(.put, "/v1/comments/\(review)/like", token: world.manager.token).problemCode
                    == "comment_not_found")
        }
    }

    @Test func sixtyFourParallelLikesAndUnlikesEndAtTheTrueCount() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(5)["id"] as! String
            var fans: [Session] = []
            for n in 0..<32 { fans.append(try await client.register("粉丝\(n)")) }
            // setup: the first 16 have liked it already
            for fan in fans.prefix(16) { _ = try await client.send(.put, "/v1/comments/\(id)/like", token: fan.token) }
            // MUT: 64 requests at once: the first 16 unlike (and re-send it), the other 16 like (and re-send it)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (n, fan) in fans.enumerated() {
                    for _ in 0..<2 {
                        group.addTask {
                            try await client.send(n < 16 ? .delete : .put, "/v1/comments/\(id)/like", token: fan.token)
                                .status
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // validate
            #expect(statuses.count == 64 && statuses.allSatisfy { $0 == .noContent })
            let row = try await app.database.query(
                "SELECT like_count, (SELECT count(*)::int FROM comment_likes WHERE comment_id = \(id)) FROM comments WHERE id = \(id)"
            )[0]
            let (kept, counted) = try row.decode((Int, Int).self)
            #expect(kept == 16)
            #expect(counted == 16)
        }
    }

    @Test func helpfulPutsTheMostLikedFirstThenTheNewest() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            var reviews: [String] = []
            for n in 0..<4 {
                let author = try await client.register("作者\(n)")
                reviews.append(try await world.review(4, "第\(n)条", as: author)["id"] as! String)
            }
            let fans = [try await client.register("甲"), try await client.register("乙")]
            for fan in fans { _ = try await client.send(.put, "/v1/comments/\(reviews[1])/like", token: fan.token) }
            _ = try await client.send(.put, "/v1/comments/\(reviews[2])/like", token: fans[0].token)
            // MUT
            let first = try CommentFixture.ids(
                try await client.send(.get, "/v1/stores/\(world.storeID)/comments?sort=helpful"))
            var walked: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get,
                    "/v1/stores/\(world.storeID)/comments?sort=helpful&limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                )
                walked += try CommentFixture.ids(page)
                cursor = try page.json()["nextCursor"] as? String
            } while cursor != nil
            // validate: 2 likes, 1 like, then the unliked newest first
            let expected = [reviews[1], reviews[2], reviews[3], reviews[0]]
            #expect(first == expected)
            #expect(walked == expected)
        }
    }
}
