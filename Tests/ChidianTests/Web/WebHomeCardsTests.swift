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
            // the card is kept on the store's entry (asked directly: the app's own reads may refill the entry at any
            // time) and a second home page is the same
            let caching = try #require(app.services.caching)
            let stores = StoreRepository(database: app.database, cache: caching.reads, places: caching.places)
            let entries = try await stores.sharedEntries(ids: [world.storeID])
            guard case .bytes(let card) = try WebPages.shared.storeCards(entries, language: .zh, from: .daily) else {
                throw TestFailure("the cards are not bytes")
            }
            #expect(entries.first?.fragments.withLock { $0["zh-CN:daily"] } == card, "the card was not kept")
            #expect(first.contains(String(decoding: card, as: UTF8.self)))
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
                    "startsAt": CouponFixture.time(starts),
                    "endsAt": CouponFixture.time(starts.addingTimeInterval(86400)),
                ], token: world.manager.token)
            #expect(offered.status == .created)
            let before = try await dailyCard()
            // A loaded machine may have taken past the start: then only the second check applies.
            if Date() < starts { #expect(!before.contains("coupon-mark"), "a coupon not yet started is shown") }
            // timing: a lower bound (past the coupon's start, which only the clock decides); a slow machine only lengthens it
            try await Task.sleep(for: .seconds(max(0.1, starts.timeIntervalSinceNow + 1.1)))
            #expect(try await dailyCard().contains("coupon-mark"), "a started coupon is not shown")
        }
    }

    @Test func aVisitorsKeptReviewCardsFollowTheReviews() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: one review, which a visitor's featured feed shows
            let world = try await CommentWorld.make(client, app)
            let review = try #require(try await world.review(4, "第一条评价")["id"] as? String)
            func card() async throws -> String {
                let page = try await WebBrowser(client).get("/")
                #expect(page.status == .ok)
                let start = try #require(
                    page.text.range(of: "<article class=\"comment\" aria-labelledby=\"c-\(review)\""))
                let end = try #require(page.text[start.upperBound...].range(of: "</article>"))
                return String(page.text[start.lowerBound..<end.upperBound])
            }
            let first = try await card()
            #expect(first.contains("第一条评价") && first.contains("data-count=\"0\"") && !first.contains("/like\""))
            #expect(try await card() == first)
            // MUT + validate: a like, an edit, a reply and the author's new name each show on the next page
            let other = try await client.register("路人")
            let liked = try await client.send(.put, "/v1/comments/\(review)/like", token: other.token)
            #expect(liked.status.code < 300)
            #expect(try await card().contains("data-count=\"1\""))
            let edited = try await client.send(
                .patch, "/v1/comments/\(review)", body: ["body": "改过的评价"], token: world.user.token)
            #expect(edited.status == .ok)
            #expect(try await card().contains("改过的评价"))
            let replied = try await client.send(
                .put, "/v1/comments/\(review)/reply", body: ["body": "谢谢光临"], token: world.manager.token)
            #expect(replied.status.code < 300)
            #expect(try await card().contains("谢谢光临"))
            let renamed = try await client.send(.patch, "/v1/me", body: ["name": "美食家"], token: world.user.token)
            #expect(renamed.status == .ok)
            #expect(try await card().contains(">美食家</a>"))
        }
    }
}
