import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

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
            _ = try await world.review(3, "拉面", storeID: shop)
            let browser = WebBrowser(client)
            // The featured section (猜你喜欢 above it names stores too).
            func featured(_ page: String) -> Substring { page[page.firstRange(of: "id=\"featured\"")!.lowerBound...] }
            let before = featured(try await browser.get("/").text)
            #expect(before.contains("兰州拉面") && before.contains("锅底0") && !before.contains("class=\"chip\""))
            #expect(browser.cookie("chidian_visitor") != nil)
            // MUT: the visitor opens three hot-pot reviews
            for id in hotpot { #expect(try await browser.get("/comments/\(id)").status == .ok) }
            try await app.flushSignals()
            // validate
            let after = featured(try await browser.get("/").text)
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

/// Writing from the store page: the API's rules for who writes what, photos through the upload rules.
@Suite struct WebWritingTests {
    static func signedIn(_ client: any TestClientProtocol, _ name: String) async throws -> WebBrowser {
        let browser = WebBrowser(client)
        _ = try await browser.get("/login")
        let response = try await browser.post("/login", ["name": name, "password": "correct horse"])
        guard response.status == .seeOther else { throw TestFailure("sign in \(name): \(response.status)") }
        return browser
    }

    @Test func aUserPostsAReviewWithPhotosAndScores() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let user = try await Self.signedIn(client, world.user.name)
            let page = try await user.get("/stores/\(world.storeID)").text
            #expect(page.contains("action=\"/stores/\(world.storeID)/comments\""))
            #expect(page.contains("name=\"rating\""))
            // MUT
            let posted = try await user.postMultipart(
                "/stores/\(world.storeID)/comments",
                ["rating": "4", "body": "毛肚脆，锅底香", "taste": "5", "environment": "", "pricePerPerson": "88"],
                photos: [TestImages.png(width: 4, height: 3), TestImages.png(width: 2, height: 2)])
            // validate
            #expect(posted.status == .seeOther)
            let location = try #require(posted.headers[.location])
            let id = String(location.dropFirst("/comments/".count))
            let review = try await client.send(.get, "/v1/comments/\(id)?track=false").json()
            #expect(review["body"] as? String == "毛肚脆，锅底香")
            #expect(review["rating"] as? Int == 4)
            #expect(review["pricePerPerson"] as? Int == 88)
            #expect((review["scores"] as? [String: Any])?["taste"] as? Int == 5)
            #expect((review["imageUrls"] as? [String])?.count == 2)
            let shown = try await user.get(location).text
            #expect(shown.contains("毛肚脆，锅底香"))
            #expect(shown.contains("人均 ¥88"))
        }
    }

    @Test func theAPIsRulesRefuseWhatItRefuses() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            _ = try await client.register("别家老板", role: "manager")
            _ = try await app.admin(client)
            let user = try await Self.signedIn(client, world.user.name)
            let cases: [(String, [String: String], [[UInt8]], HTTPResponse.Status, String)] = [
                (world.user.name, ["body": "没打分"], [], .badRequest, "请选择 1 到 5 星"),
                (world.user.name, ["rating": "4", "body": "  "], [], .badRequest, "请填写内容"),
                (world.user.name, ["rating": "4.5", "body": "半星"], [], .badRequest, "请选择 1 到 5 星"),
                (world.user.name, ["rating": "4", "body": "贵", "pricePerPerson": "0"], [], .badRequest, "人均为"),
                (
                    world.user.name, ["rating": "4", "body": "图"], [Array("not an image".utf8)], .unsupportedMediaType,
                    "只支持"
                ),
                ("别家老板", ["body": "本店通知"], [], .forbidden, "只能在自己的餐厅发布通知"),
            ]
            var sessions: [String: WebBrowser] = [world.user.name: user]
            for (name, fields, photos, status, message) in cases {
                if sessions[name] == nil { sessions[name] = try await Self.signedIn(client, name) }
                // MUT
                let response = try await sessions[name]!.postMultipart(
                    "/stores/\(world.storeID)/comments", fields, photos: photos)
                // validate
                #expect(response.status == status, "\(name) \(fields)")
                #expect(response.text.contains(message), "\(name) \(fields)")
            }
            let rows = try await app.database.query("SELECT count(*)::int FROM comments")
            #expect(try rows[0].decode(Int.self) == 0)
            let images = try await app.database.query("SELECT count(*)::int FROM images")
            #expect(try images[0].decode(Int.self) == 0, "a refused review stored its photos")
            // the store's manager posts a notice (no rating asked)
            let manager = try await Self.signedIn(client, world.manager.name)
            #expect(!(try await manager.get("/stores/\(world.storeID)").text.contains("name=\"rating\"")))
            let notice = try await manager.postMultipart("/stores/\(world.storeID)/comments", ["body": "周一休息"])
            #expect(notice.status == .seeOther)
            // without the CSRF field nothing is written
            let forged = try await client.execute(
                uri: "/stores/\(world.storeID)/comments", method: .post,
                headers: [
                    .contentType: "multipart/form-data; boundary=x",
                    .cookie: "chidian_session=\(user.cookie("chidian_session")!)",
                ],
                body: ByteBuffer(string: "--x\r\nContent-Disposition: form-data; name=\"body\"\r\n\r\nhi\r\n--x--\r\n"))
            #expect(forged.status == .forbidden)
        }
    }
}
