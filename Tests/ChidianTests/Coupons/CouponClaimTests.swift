import Foundation
import HummingbirdTesting
import Synchronization
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Claiming: every refusal, the idempotency key, and never one too many under concurrency.
@Suite struct CouponClaimTests {
    @Test func aClaimHasAReadableCodeAndCountsOnce() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("领券人")
            let id = try #require(try await shop.offer(client, stock: 3, extra: ["validDays": 2])["id"] as? String)
            // MUT
            let response = try await CouponFixture.claim(client, id, eater)
            // validate
            #expect(response.status == .created)
            let claim = try response.json()
            let code = try #require(claim["code"] as? String)
            #expect(code.count == 12 && code.allSatisfy { "23456789ABCDEFGHJKLMNPQRSTUVWXYZ".contains($0) })
            #expect(claim["redeemedAt"] is NSNull)
            let coupon = try #require(claim["coupon"] as? [String: Any])
            #expect(coupon["remaining"] as? Int == 2 && coupon["claimedByMe"] as? Int == 1)
            let formatter = ISO8601DateFormatter()
            let claimed = try #require((claim["claimedAt"] as? String).flatMap(formatter.date(from:)))
            let expires = try #require((claim["expiresAt"] as? String).flatMap(formatter.date(from:)))
            #expect(abs(expires.timeIntervalSince(claimed) - 2 * 86400) < 2)
            let seen = try await client.send(.get, "/v1/coupons/\(id)", token: eater.token).json()
            #expect(seen["claimedByMe"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/coupons/\(id)").json()["claimedByMe"] as? Int == 0)
        }
    }

    @Test func everyRefusalInItsOwnWords() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("被拒的人")
            let other = try await client.register("另一人")
            let one = try #require(try await shop.offer(client, stock: 1)["id"] as? String)
            let soon = try #require(
                try await shop.offer(
                    client, extra: ["startsAt": CouponFixture.time(Date().addingTimeInterval(3600))])["id"] as? String)
            #expect(try await client.send(.post, "/v1/coupons/\(one)/claims").status == .unauthorized)
            #expect(try await CouponFixture.claim(client, one, shop.manager).problemCode == "own_store")
            #expect(try await CouponFixture.claim(client, soon, eater).problemCode == "coupon_not_live")
            #expect(try await CouponFixture.claim(client, "k_nothing", eater).problemCode == "coupon_not_found")
            #expect(
                try await CouponFixture.claim(client, one, eater, key: "short").problemCode
                    == "invalid_idempotency_key")
            #expect(try await CouponFixture.claim(client, one, eater).status == .created)
            let again = try await CouponFixture.claim(client, one, eater)
            #expect(again.status == .conflict)
            #expect(again.problemCode == "sold_out" || again.problemCode == "claim_limit")
            #expect(try await CouponFixture.claim(client, one, other).problemCode == "sold_out")
            let two = try #require(try await shop.offer(client, stock: 5)["id"] as? String)
            #expect(try await CouponFixture.claim(client, two, eater).status == .created)
            #expect(try await CouponFixture.claim(client, two, eater).problemCode == "claim_limit")
            #expect(
                try await client.send(.delete, "/v1/coupons/\(two)", token: shop.manager.token).status == .noContent)
            #expect(try await CouponFixture.claim(client, two, other).problemCode == "coupon_not_live")
        }
    }

    @Test func aKeyRetriedReturnsTheSameClaim() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("重试的人")
            let id = try #require(try await shop.offer(client, stock: 5, extra: ["perUser": 3])["id"] as? String)
            let first = try await CouponFixture.claim(client, id, eater, key: "retry-key-0001")
            #expect(first.status == .created)
            // MUT: the answer was lost; the same key again
            let second = try await CouponFixture.claim(client, id, eater, key: "retry-key-0001")
            // validate
            #expect(second.status == .ok)
            #expect(try second.json()["id"] as? String == (try first.json()["id"] as? String))
            #expect(try second.json()["code"] as? String == (try first.json()["code"] as? String))
            let rows = try await app.database.query("SELECT count(*)::int FROM coupon_claims")
            #expect(try rows[0].decode(Int.self) == 1)
            #expect(try await client.send(.get, "/v1/coupons/\(id)").json()["remaining"] as? Int == 4)
            // Another key is another claim.
            #expect(try await CouponFixture.claim(client, id, eater, key: "retry-key-0002").status == .created)
        }
    }

    /// 40 people press 领取 at once for 7 coupons; then one person presses 10 times at once for a limit of 2.
    @Test func neverOneTooMany() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let id = try #require(try await shop.offer(client, stock: 7)["id"] as? String)
            var eaters: [Session] = []
            for n in 0..<40 { eaters.append(try await client.register("抢券人\(n)")) }
            // MUT
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for eater in eaters {
                    group.addTask { try await CouponFixture.claim(client, id, eater).problemCode ?? "created" }
                }
                var codes: [String] = []
                for try await code in group { codes.append(code ?? "") }
                return codes
            }
            // validate
            #expect(codes.filter { $0 == "created" }.count == 7)
            #expect(codes.filter { $0 == "sold_out" }.count == 33)
            let stored = try await app.database.query(
                "SELECT count(*)::int, (SELECT claimed FROM coupons WHERE id = \(id)) FROM coupon_claims WHERE coupon_id = \(id)"
            )
            let (claims, claimed) = try stored[0].decode((Int, Int).self)
            #expect(claims == 7 && claimed == 7)
            #expect(try await client.send(.get, "/v1/coupons/\(id)").json()["state"] as? String == "sold_out")

            let two = try #require(try await shop.offer(client, stock: 100, extra: ["perUser": 2])["id"] as? String)
            let eager = eaters[0]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { Int(try await CouponFixture.claim(client, two, eager).status.code) } }
                var statuses: [Int] = []
                for try await status in group { statuses.append(status) }
                return statuses
            }
            #expect(statuses.filter { $0 == 201 }.count == 2 && statuses.filter { $0 == 409 }.count == 8)
            let held = try await app.database.query("SELECT count(*)::int FROM coupon_claims WHERE coupon_id = \(two)")
            #expect(try held[0].decode(Int.self) == 2)
        }
    }
}
