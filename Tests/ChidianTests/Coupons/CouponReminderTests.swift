import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// `coupon_expiring`: a holder hears once, 24 h before an unused claim expires (at once for a one-day claim).
@Suite struct CouponReminderTests {
    static func kinds(_ client: any TestClientProtocol, _ user: Session) async throws -> [String] {
        let page = try await client.send(.get, "/v1/me/notifications", token: user.token).json()
        return (page["items"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    @Test func aHolderHearsOnceBeforeAnUnusedClaimExpires() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("快过期的人")
            let oneDay = try #require(try await shop.offer(client, extra: ["validDays": 1])["id"] as? String)
            let week = try #require(
                try await shop.offer(client, extra: ["validDays": 7, "perUser": 2])["id"] as? String)
            // MUT: a one-day claim is due at once
            #expect(try await CouponFixture.claim(client, oneDay, eater).status == .created)
            // validate
            #expect(try await Self.kinds(client, eater) == ["coupon_expiring"])
            let kept = try await CouponFixture.claim(client, week, eater).json()
            let used = try await CouponFixture.claim(client, week, eater).json()
            #expect(try await CouponReminders.send(app.database) == 0)
            // Both now expire within a day; the redeemed one is never told.
            try await app.database.query(
                "UPDATE coupon_claims SET expires_at = now() + interval '23 hours' WHERE coupon_id = \(week)")
            let code = try #require(used["code"] as? String)
            let redeemed = try await client.send(
                .post, "/v1/stores/\(shop.storeID)/redemptions", body: ["code": code], token: shop.manager.token)
            #expect(redeemed.status == .ok)
            #expect(try await CouponReminders.send(app.database) == 1)
            #expect(try await CouponReminders.send(app.database) == 0)
            #expect(try await Self.kinds(client, eater) == ["coupon_expiring", "coupon_expiring"])
            #expect(kept["id"] != nil)
        }
    }
}
