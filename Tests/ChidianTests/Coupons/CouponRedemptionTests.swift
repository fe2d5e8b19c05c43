import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// At the table: the manager redeems a code once; a user lists their claims by state.
@Suite struct CouponRedemptionTests {
    @Test func aCodeIsRedeemedOnceByItsStoresManager() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let elsewhere = try await CouponFixture.make(client, app, name: "别的店")
            let eater = try await client.register("用券人")
            let id = try #require(try await shop.offer(client)["id"] as? String)
            let code = try #require(try await CouponFixture.claim(client, id, eater).json()["code"] as? String)
            let path = "/v1/stores/\(shop.storeID)/redemptions"
            #expect(
                try await client.send(.post, path, body: ["code": code], token: eater.token).problemCode
                    == "not_store_owner")
            #expect(
                try await client.send(
                    .post, "/v1/stores/\(elsewhere.storeID)/redemptions", body: ["code": code],
                    token: elsewhere.manager.token
                ).problemCode == "code_not_found")
            #expect(
                try await client.send(.post, path, body: ["code": "ZZZZZZZZZZZZ"], token: shop.manager.token)
                    .problemCode == "code_not_found")
            // MUT: typed at the table in lower case
            let redeemed = try await client.send(
                .post, path, body: ["code": code.lowercased()], token: shop.manager.token)
            // validate
            #expect(redeemed.status == .ok)
            #expect(try redeemed.json()["redeemedAt"] is String)
            let again = try await client.send(.post, path, body: ["code": code], token: shop.manager.token)
            #expect(again.status == .conflict && again.problemCode == "already_redeemed")
        }
    }

    @Test func anExpiredClaimIsGoneAndClaimsListByState() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("过期的人")
            let id = try #require(try await shop.offer(client, extra: ["perUser": 3])["id"] as? String)
            var codes: [String] = []
            for _ in 0..<3 {
                codes.append(try #require(try await CouponFixture.claim(client, id, eater).json()["code"] as? String))
            }
            try await app.database.query(
                "UPDATE coupon_claims SET expires_at = now() - interval '1 minute' WHERE code = \(codes[0])")
            let path = "/v1/stores/\(shop.storeID)/redemptions"
            // MUT
            let expired = try await client.send(.post, path, body: ["code": codes[0]], token: shop.manager.token)
            // validate
            #expect(expired.status == .gone && expired.problemCode == "claim_expired")
            #expect(
                try await client.send(.post, path, body: ["code": codes[1]], token: shop.manager.token).status == .ok)
            func listed(_ state: String?) async throws -> [String] {
                let query = state.map { "?state=\($0)" } ?? ""
                let page = try await client.send(.get, "/v1/me/claims\(query)", token: eater.token).json()
                return (page["items"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            }
            #expect(try await listed("expired") == [codes[0]])
            #expect(try await listed("redeemed") == [codes[1]])
            #expect(try await listed("usable") == [codes[2]])
            #expect(try await listed(nil) == codes.reversed())
            let bad = try await client.send(.get, "/v1/me/claims?state=lost", token: eater.token)
            #expect(bad.problemCode == "invalid_state")
            #expect(try await client.send(.get, "/v1/me/claims").status == .unauthorized)
        }
    }

    @Test func insightsCountClaimsAndRedemptionsByDay() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let id = try #require(try await shop.offer(client)["id"] as? String)
            var codes: [String] = []
            for n in 0..<3 {
                let eater = try await client.register("统计券\(n)")
                codes.append(try #require(try await CouponFixture.claim(client, id, eater).json()["code"] as? String))
            }
            let redeemed = try await client.send(
                .post, "/v1/stores/\(shop.storeID)/redemptions", body: ["code": codes[1]], token: shop.manager.token)
            #expect(redeemed.status == .ok)
            // MUT
            let insights = try await client.send(
                .get, "/v1/stores/\(shop.storeID)/insights", token: shop.manager.token
            ).json()
            // validate
            let totals = try #require(insights["totals"] as? [String: Any])
            #expect(totals["claims"] as? Int == 3 && totals["redemptions"] as? Int == 1)
            let days = try #require(insights["days"] as? [[String: Any]])
            #expect(days.last?["claims"] as? Int == 3)
            let csv = try await client.send(
                .get, "/v1/stores/\(shop.storeID)/insights?format=csv", token: shop.manager.token
            ).text
            let lines = csv.split(separator: "\r\n")
            #expect(lines.first?.hasSuffix(",claims,redemptions") == true)
            #expect(lines.last?.hasSuffix(",3,1") == true)
        }
    }
}
