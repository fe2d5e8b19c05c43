import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Chidian

/// What pages do, through the API's own code paths: a visitor's clicks re-rank the feed, likes and favorites
/// follow the API's rules, and an anonymous viewer is sent to sign in.
@Suite struct WebActionsTests {
    @Test func aVisitorsOpenedCategoryComesFirstAfterARefresh() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let noodles = try await CommentFixture.category(app, "面馆")
            let shop = try await CommentFixture.store(
                app, name: "兰州拉面", categoryID: noodles, managerID: world.manager.id)
            var hotpot: [String] = []
            for i in 0..<3 { hotpot.append(try await world.review(4, "锅底\(i)")["id"] as! String) }
            _ = try await world.review(3, "拉面", storeID: shop)  // the newest, first for a viewer without clicks
            let browser = WebBrowser(client)
            let before = try await browser.get("/").text
            #expect(before.firstRange(of: "兰州拉面")!.lowerBound < before.firstRange(of: "锅底")!.lowerBound)
            #expect(browser.cookie("chidian_visitor") != nil)
            // MUT: the visitor opens three hot-pot reviews
            for id in hotpot { #expect(try await browser.get("/comments/\(id)").status == .ok) }
            // validate
            let after = try await browser.get("/").text
            #expect(after.contains("<li class=\"chip\">火锅</li>"))
            #expect(after.firstRange(of: "锅底")!.lowerBound < after.firstRange(of: "兰州拉面")!.lowerBound)
            let visitor = try #require(browser.cookie("chidian_visitor"))
            let interests = try await client.send(
                .get, "/v1/me/interests", headers: [.init("X-Visitor-Id")!: visitor]
            ).json()
            let first = (interests["items"] as? [[String: Any]])?.first
            #expect(first?["clicks"] as? Int == 3)
        }
    }

    @Test func likesAndFavoritesFollowTheAPIRules() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(5)["id"] as! String
            _ = try await client.register("点赞者")
            let fan = WebBrowser(client)
            _ = try await fan.get("/login")
            _ = try await fan.post("/login", ["name": "点赞者", "password": "correct horse"])
            // MUT: like from the store page, then favorite
            let liked = try await fan.post("/comments/\(review)/like", ["back": "/stores/\(world.storeID)"])
            let favorited = try await fan.post("/stores/\(world.storeID)/favorite", [:])
            // validate
            #expect(liked.status == .seeOther)
            #expect(liked.headers[.location] == "/stores/\(world.storeID)")
            #expect(favorited.headers[.location] == "/stores/\(world.storeID)")
            let seen = try await client.send(.get, "/v1/comments/\(review)?track=false").json()
            #expect(seen["likeCount"] as? Int == 1)
            let page = try await fan.get("/stores/\(world.storeID)").text
            #expect(page.contains("action=\"/comments/\(review)/unlike\""))
            #expect(page.contains("action=\"/stores/\(world.storeID)/unfavorite\""))
            #expect(page.contains("1 赞"))
            // the author may not like their own review: the API's 403, as a page
            let author = WebBrowser(client)
            _ = try await author.get("/login")
            _ = try await author.post("/login", ["name": "食客", "password": "correct horse"])
            let own = try await author.post("/comments/\(review)/like")
            #expect(own.status == .forbidden)
            #expect(own.text.contains("不能对自己的评论这样做"))
            #expect(!(try await author.get("/stores/\(world.storeID)").text.contains("/comments/\(review)/like")))
            // nobody signed in: to the sign-in form and back
            let stranger = WebBrowser(client)
            _ = try await stranger.get("/")
            let anonymous = try await stranger.post(
                "/comments/\(review)/like", headers: [.init("Referer")!: "http://localhost/stores/\(world.storeID)"])
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == "/login?next=%2Fstores%2F\(world.storeID)")
            let after = try await client.send(.get, "/v1/comments/\(review)?track=false").json()
            #expect(after["likeCount"] as? Int == 1)
        }
    }
}
