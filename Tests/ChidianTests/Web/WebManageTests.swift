import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 商家管理: opening, editing and promoting stores and replying to reviews, by the API's rules.
@Suite struct WebManageTests {
    @Test func aManagerOpensPromotesEditsAndReplies() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(3, "一般")["id"] as! String
            let boss = try await WebWritingTests.signedIn(client, world.manager.name)
            let page = try await boss.get("/manage").text
            #expect(page.contains("小龙坎"))
            #expect(page.contains("<option value=\"\(world.categoryID)\">火锅</option>"))
            // MUT: open a store with a photo
            let opened = try await boss.postMultipart(
                "/manage/stores", ["name": "新开的店", "categoryId": world.categoryID, "address": "春熙路 1 号"],
                photos: [TestImages.png(width: 5, height: 4)])
            // validate
            #expect(opened.status == .seeOther)
            let location = try #require(opened.headers[.location])
            let storeID = String(location.dropFirst("/manage/stores/".count).prefix { $0 != "?" })
            let store = try await client.send(.get, "/v1/stores/\(storeID)").json()
            #expect(store["name"] as? String == "新开的店")
            #expect((store["imageUrls"] as? [String])?.count == 1)
            // promotion: a fraction is refused beside its form; an amount puts the store in 每日促销
            let fraction = try await boss.post("/manage/stores/\(storeID)/promotions", ["amount": "2.5"])
            #expect(fraction.status == .badRequest)
            #expect(fraction.text.contains("广告费为 1 到 1000000 的整数"))
            let bought = try await boss.post("/manage/stores/\(storeID)/promotions", ["amount": "500"])
            #expect(bought.headers[.location] == "/manage?saved=promotion-\(storeID)")
            #expect(try await boss.get("/manage").text.contains("<strong class=\"ad-spend\">500</strong>"))
            let home = try await WebBrowser(client).get("/").text
            #expect(home.contains("href=\"/stores/\(storeID)?from=daily\""))
            // edit with the version read; a stale version is the API's 412
            let edit = try await boss.get("/manage/stores/\(storeID)").text
            let version = try #require(edit.firstMatch(of: /name="version" value="(\d+)"/)?.1)
            let saved = try await boss.postMultipart(
                "/manage/stores/\(storeID)",
                ["version": String(version), "name": "改名的店", "categoryId": world.categoryID])
            #expect(saved.headers[.location] == "/manage/stores/\(storeID)?saved=edit")
            let stale = try await boss.postMultipart(
                "/manage/stores/\(storeID)",
                ["version": String(version), "name": "又改名", "categoryId": world.categoryID])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.text.contains("餐厅已被修改"))
            #expect(try await client.send(.get, "/v1/stores/\(storeID)").json()["name"] as? String == "改名的店")
            // reply to a review of the first store
            let replied = try await boss.post(
                "/comments/\(review)/reply", ["body": "谢谢，我们会改进", "back": "/manage/stores/\(world.storeID)"])
            #expect(replied.headers[.location] == "/manage/stores/\(world.storeID)")
            let shown = try await client.send(.get, "/v1/comments/\(review)?track=false").json()
            #expect((shown["reply"] as? [String: Any])?["body"] as? String == "谢谢，我们会改进")
            #expect(try await boss.get("/stores/\(world.storeID)").text.contains("谢谢，我们会改进"))
        }
    }

    @Test func othersAreRefusedAsTheAPIRefusesThem() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(3)["id"] as! String
            _ = try await client.register("别家老板", role: "manager")
            let user = try await WebWritingTests.signedIn(client, world.user.name)
            let rival = try await WebWritingTests.signedIn(client, "别家老板")
            let diner = try await user.get("/manage")
            #expect(diner.status == .forbidden)
            #expect(diner.text.contains("只有商家可以管理餐厅"))
            let cases: [(WebBrowser, String, [String: String])] = [
                (rival, "/manage/stores/\(world.storeID)/promotions", ["amount": "100"]),
                (rival, "/comments/\(review)/reply", ["body": "抢答"]),
                (user, "/comments/\(review)/reply", ["body": "我也回"]),
            ]
            for (browser, path, fields) in cases {
                // MUT
                let response = try await browser.post(path, fields)
                // validate
                #expect(response.status == .forbidden, "\(path)")
            }
            #expect(try await rival.get("/manage/stores/\(world.storeID)").status == .forbidden)
            let spend = try await app.database.query("SELECT ad_spend FROM stores WHERE id = \(world.storeID)")
            #expect(try spend[0].decode(Int.self) == 0)
            let shown = try await client.send(.get, "/v1/comments/\(review)?track=false").json()
            #expect(shown["reply"] is NSNull)
        }
    }
}
