import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Following: idempotent follow and unfollow, exact counts (a deleted account's follows included), the lists of
/// followers and following, bad input, the daily cap, and the following feed.
@Suite struct FollowTests {
    @Test func followingIsIdempotentCountedAndShownToTheViewer() async throws {
        try await TestApp.run { client, app in
            let a = try await client.register("关注者")
            let b = try await client.register("被关注者")
            // MUT: twice
            for _ in 0..<2 {
                #expect(try await client.send(.put, "/v1/users/\(b.id)/follow", token: a.token).status == .noContent)
            }
            // validate
            let seen = try await client.send(.get, "/v1/users/\(b.id)", token: a.token).json()
            #expect(seen["followerCount"] as? Int == 1)
            #expect(seen["followingCount"] as? Int == 0)
            #expect(seen["following"] as? Bool == true)
            let anonymous = try await client.send(.get, "/v1/users/\(b.id)").json()
            #expect(anonymous["following"] as? Bool == false)
            let me = try await client.send(.get, "/v1/me", token: a.token).json()
            #expect(me["followingCount"] as? Int == 1)
            let followers = try await client.send(.get, "/v1/users/\(b.id)/followers", token: a.token).json()
            #expect((followers["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [a.id])
            let following = try await client.send(.get, "/v1/users/\(a.id)/following").json()
            #expect((following["items"] as? [[String: Any]])?.first?["name"] as? String == "被关注者")
            // unfollowing twice leaves none
            for _ in 0..<2 {
                #expect(
                    try await client.send(.delete, "/v1/users/\(b.id)/follow", token: a.token).status == .noContent)
            }
            let after = try await client.send(.get, "/v1/users/\(b.id)", token: a.token).json()
            #expect(after["followerCount"] as? Int == 0)
            #expect(after["following"] as? Bool == false)
        }
    }

    @Test func selfUnknownAndAnonymousAreRefused() async throws {
        try await TestApp.run { client, app in
            let a = try await client.register("自己")
            #expect(
                try await client.send(.put, "/v1/users/\(a.id)/follow", token: a.token).problemCode
                    == "cannot_follow_self")
            #expect(
                try await client.send(.put, "/v1/users/u_nobody/follow", token: a.token).problemCode
                    == "user_not_found")
            #expect(
                try await client.send(.put, "/v1/users/\(String(repeating: "x", count: 5000))/follow", token: a.token)
                    .problemCode == "user_not_found")
            #expect(try await client.send(.put, "/v1/users/\(a.id)/follow").problemCode == "login_required")
            #expect(try await client.send(.get, "/v1/users/u_nobody/followers").problemCode == "user_not_found")
            #expect(try await client.send(.get, "/v1/feed/following").problemCode == "login_required")
            #expect(
                try await client.send(.get, "/v1/users/\(a.id)/following?cursor=nonsense").problemCode
                    == "invalid_cursor")
            let count = try await app.database.query("SELECT count(*)::int FROM follows")[0].decode(Int.self)
            #expect(count == 0)
        }
    }

    @Test func aDeletedAccountsFollowsLeaveExactCounts() async throws {
        try await TestApp.run { client, app in
            let a = try await client.register("甲")
            let b = try await client.register("乙")
            let c = try await client.register("丙")
            for (from, to) in [(a, b), (c, b), (b, c), (a, c)] {
                _ = try await client.send(.put, "/v1/users/\(to.id)/follow", token: from.token)
            }
            // MUT: c's account goes (as the account deletion of #33 will delete it)
            try await app.database.query("DELETE FROM users WHERE id = \(c.id)")
            // validate
            let bView = try await client.send(.get, "/v1/users/\(b.id)").json()
            #expect(bView["followerCount"] as? Int == 1)
            #expect(bView["followingCount"] as? Int == 0)
            let aView = try await client.send(.get, "/v1/users/\(a.id)").json()
            #expect(aView["followingCount"] as? Int == 1)
            let named = try await app.database.query(
                """
                SELECT (SELECT count(*) FROM follows WHERE \(c.id) IN (follower_id, followee_id))
                     + (SELECT count(*) FROM notification_actors WHERE user_id = \(c.id))
                     + (SELECT count(*) FROM notifications WHERE user_id = \(c.id))
                """)[0].decode(Int.self)
            #expect(named == 0)
        }
    }

    @Test func followsPerDayAreCapped() async throws {
        try await TestApp.run(configure: { $0.followsPerDay = 2 }) { client, app in
            let a = try await client.register("狂关注")
            var others: [Session] = []
            for n in 0..<3 { others.append(try await client.register("人\(n)")) }
            for other in others.prefix(2) {
                #expect(
                    try await client.send(.put, "/v1/users/\(other.id)/follow", token: a.token).status == .noContent)
            }
            // re-following one already followed costs nothing
            #expect(
                try await client.send(.put, "/v1/users/\(others[0].id)/follow", token: a.token).status == .noContent)
            // MUT
            let third = try await client.send(.put, "/v1/users/\(others[2].id)/follow", token: a.token)
            // validate
            #expect(third.status == .tooManyRequests)
            #expect(third.problemCode == "rate_limited")
            #expect(third.headers[.retryAfter] != nil)
        }
    }

    @Test func theFollowingFeedShowsFollowedReviewsNewestFirstInPages() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let reader = try await client.register("读者")
            let stranger = try await client.register("路人")
            let friend = try await client.register("朋友")
            let second = try await CommentFixture.store(
                app, name: "海底捞", categoryID: world.categoryID, managerID: world.manager.id)
            _ = try await client.send(.put, "/v1/users/\(world.user.id)/follow", token: reader.token)
            _ = try await client.send(.put, "/v1/users/\(friend.id)/follow", token: reader.token)
            var posted: [String] = []
            for (n, session) in [world.user, friend, world.user, friend, world.user].enumerated() {
                posted.append(
                    try await world.review(4, "第\(n)条", as: session, storeID: n % 2 == 0 ? world.storeID : second)[
                        "id"] as! String)
            }
            _ = try await world.review(3, "路人的", as: stranger)
            // one hidden review is in no page
            #expect(try await CommentModeration.hide(id: posted[2], database: app.database) == .hidden)
            await app.settle()
            // MUT: pages of two
            var seen: [String] = []
            var cursor: String? = nil
            repeat {
                let uri = "/v1/feed/following?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: reader.token).json()
                seen += (page["items"] as! [[String: Any]]).map { $0["id"] as! String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            // validate
            #expect(seen == [posted[4], posted[3], posted[1], posted[0]])
            let empty = try await client.send(.get, "/v1/feed/following", token: stranger.token).json()
            #expect((empty["items"] as? [Any])?.isEmpty == true)
        }
    }
}
