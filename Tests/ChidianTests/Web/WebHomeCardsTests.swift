import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianWeb

/// Issue 45: the home page's store cards are rendered once per store entry and kept on it, so each change to what a
/// card shows (a write, or a coupon starting with no write at all) shows on the next home page.
@Suite struct WebHomeCardsTests {
    @Test func aKeptCardFollowsEveryChangeToWhatItShows() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: a promoted store, so its card is in 每日促销
            let world = try await CommentWorld.make(client, app)
            let bought = try await client.send(
                .post, "/v1/stores/\(world.storeID)/promotions", body: ["amount": 88], token: world.manager.token)
            #expect(bought.status.code < 300)
            func dailyCard() async throws -> String {
                let page = try await WebBrowser(client).get("/")
                #expect(page.status == .ok)
                let daily = try #require(page.text.range(of: "id=\"daily\""))
                let section = page.text[daily.upperBound...]
                let end = try #require(section.range(of: "</section>"))
                return String(section[..<end.lowerBound])
            }
            let first = try await dailyCard()
            #expect(first.contains("/stores/\(world.storeID)?from=daily") && first.contains("小龙坎"))
            #expect(!first.contains("coupon-mark") && !first.contains("class=\"stars\""))
            // the card is kept on the store's entry and a second home page is the same
            let reads = try #require(app.services.caching?.reads)
            let entry = try #require(reads.get("s:" + world.storeID, as: StoreCard.self))
            #expect(entry.fragments.withLock { $0["zh-CN:daily"] } != nil, "the card was not kept")
            #expect(try await dailyCard() == first)
            // MUT + validate: a rating, a rename and a coupon that starts with no write each show on the next page
            _ = try await world.review(5, "好吃")
            #expect(try await dailyCard().contains("class=\"stars\""))
            try await app.database.query("UPDATE stores SET name = '小龙坎老火锅' WHERE id = \(world.storeID)")
            await app.settle()
            #expect(try await dailyCard().contains("小龙坎老火锅"))
            let starts = Date().addingTimeInterval(4)
            let offered = try await client.send(
                .post, "/v1/stores/\(world.storeID)/coupons",
                body: [
                    "title": "满100减20", "faceValue": 20, "minSpend": 100, "stock": 5,
                    "startsAt": CouponFixture.time(starts), "endsAt": CouponFixture.time(starts.addingTimeInterval(86400)),
                ], token: world.manager.token)
            #expect(offered.status == .created)
            let before = try await dailyCard()
            // A loaded machine may have taken past the start: then only the second check applies.
            if Date() < starts { #expect(!before.contains("coupon-mark"), "a coupon not yet started is shown") }
            try await Task.sleep(for: .seconds(max(0.1, starts.timeIntervalSinceNow + 1.1)))
            #expect(try await dailyCard().contains("coupon-mark"), "a started coupon is not shown")
        }
    }
}
