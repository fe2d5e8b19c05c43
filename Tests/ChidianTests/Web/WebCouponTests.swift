import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 领券 in the browser: the manager offers, a diner claims (领取) and sees the code (我的券), the manager redeems it.
@Suite struct WebCouponTests {
    @Test func offerClaimShowAndRedeem() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app, name: "网页券店")
            _ = try await client.register("网页食客")
            let boss = try await WebWritingTests.signedIn(client, shop.manager.name)
            let diner = try await WebWritingTests.signedIn(client, "网页食客")
            let manage = "/manage/stores/\(shop.storeID)"
            let page = try await boss.get(manage).text
            #expect(page.contains("action=\"/manage/stores/\(shop.storeID)/coupons\""))
            // MUT: the offer form (times are the store's wall clock)
            let offered = try await boss.post(
                "\(manage)/coupons",
                [
                    "title": "午市减10", "faceValue": "10", "minSpend": "50", "stock": "20", "perUser": "1",
                    "startsAt": "", "endsAt": WebCouponPages.localInput(Date().addingTimeInterval(86400)),
                    "validDays": "7",
                ])
            #expect(offered.status == .seeOther)
            #expect(offered.headers[.location] == "\(manage)?saved=coupon#coupons")
            let bad = try await boss.post("\(manage)/coupons", ["title": "坏券", "faceValue": "0", "stock": "1"])
            #expect(bad.headers[.location] == "\(manage)?coupon=invalid_coupon#coupons")
            #expect(try await boss.get("\(manage)?coupon=invalid_coupon").text.contains("优惠券设置有误"))
            // The store page shows it to everyone; a visitor is asked to sign in.
            let visitor = WebBrowser(client)
            let seen = try await visitor.get("/stores/\(shop.storeID)").text
            #expect(seen.contains("午市减10") && seen.contains("登录后领取"))
            let store = try await diner.get("/stores/\(shop.storeID)").text
            let key = try #require(
                store.firstMatch(of: /name="key" value="([A-Za-z0-9_-]+)"/).map { String($0.output.1) })
            let couponID = try #require(
                store.firstMatch(of: /action="\/coupons\/([^\/"]+)\/claim"/).map { String($0.output.1) })
            let claimed = try await diner.post("/coupons/\(couponID)/claim", ["store": shop.storeID, "key": key])
            #expect(claimed.status == .seeOther)
            let location = try #require(claimed.headers[.location])
            #expect(location.hasPrefix("/me/coupons?claimed="))
            // The same form sent again claims nothing more.
            let again = try await diner.post("/coupons/\(couponID)/claim", ["store": shop.storeID, "key": key])
            #expect(again.headers[.location] == location)
            let mine = try await diner.get(location).text
            let code = try #require(
                mine.firstMatch(of: /class="claim-code"[^>]*>([2-9A-HJ-NP-Z]{12})</).map { String($0.output.1) })
            #expect(mine.contains("领到了"))
            // The manager redeems it at the table, typed in lower case.
            let redeemed = try await boss.post("\(manage)/redemptions", ["code": code.lowercased()])
            #expect(redeemed.headers[.location] == "\(manage)?redeemed=\(code)#redeem")
            let twice = try await boss.post("\(manage)/redemptions", ["code": code])
            #expect(twice.headers[.location] == "\(manage)?redeem=already_redeemed#redeem")
            #expect(try await diner.get("/me/coupons").text.contains("已使用"))
            let stored = try await app.database.query("SELECT count(*)::int FROM coupon_claims")
            #expect(try stored[0].decode(Int.self) == 1)
        }
    }
}
