import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Offering, reading and ending coupons: who may, and every range of an offer.
@Suite struct CouponOfferTests {
    @Test func theManagerOffersACouponAnyoneReadsIt() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            // MUT
            let coupon = try await shop.offer(client, stock: 100, extra: ["perUser": 2, "validDays": 7])
            // validate
            #expect(coupon["storeId"] as? String == shop.storeID)
            #expect(coupon["title"] as? String == "满100减20")
            #expect(coupon["faceValue"] as? Int == 20 && coupon["minSpend"] as? Int == 100)
            #expect(coupon["stock"] as? Int == 100 && coupon["remaining"] as? Int == 100)
            #expect(coupon["perUser"] as? Int == 2 && coupon["validDays"] as? Int == 7)
            #expect(coupon["state"] as? String == "live" && coupon["claimedByMe"] as? Int == 0)
            let id = try #require(coupon["id"] as? String)
            let read = try await client.send(.get, "/v1/coupons/\(id)")
            #expect(read.status == .ok)
            #expect(try read.json()["remaining"] as? Int == 100)
            let list = try await client.send(.get, "/v1/stores/\(shop.storeID)/coupons")
            let items = try #require(try list.json()["items"] as? [[String: Any]])
            #expect(items.map { $0["id"] as? String } == [id])
            #expect(try await client.send(.get, "/v1/coupons/k_nothing").problemCode == "coupon_not_found")
            #expect(try await client.send(.get, "/v1/stores/nothing/coupons").problemCode == "store_not_found")
        }
    }

    @Test func onlyTheStoresManagerOffersOrEnds() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let other = try await client.register("别家店长", role: "manager")
            let admin = try await app.admin(client, name: "券管理员")
            let body: [String: Any] = [
                "title": "券", "faceValue": 5, "stock": 5, "endsAt": CouponFixture.time(Date().addingTimeInterval(3600)),
            ]
            for user in [other, admin] {
                let response = try await client.send(
                    .post, "/v1/stores/\(shop.storeID)/coupons", body: body, token: user.token)
                #expect(response.status == .forbidden && response.problemCode == "not_store_owner")
            }
            #expect(
                try await client.send(.post, "/v1/stores/\(shop.storeID)/coupons", body: body).status == .unauthorized)
            let id = try #require(try await shop.offer(client)["id"] as? String)
            let refused = try await client.send(.delete, "/v1/coupons/\(id)", token: other.token)
            #expect(refused.problemCode == "not_store_owner")
            // MUT: its manager ends it
            let ended = try await client.send(.delete, "/v1/coupons/\(id)", token: shop.manager.token)
            // validate
            #expect(ended.status == .noContent)
            #expect(try await client.send(.get, "/v1/coupons/\(id)").json()["state"] as? String == "ended")
        }
    }

    @Test func everyFieldOutOfItsRangeIsNamed() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let now = Date()
            let cases: [([String: Any], String)] = [
                (["faceValue": 0], "faceValue"), (["faceValue": 10_001], "faceValue"),
                (["faceValue": 5.5], "faceValue"),
                (["minSpend": -1], "minSpend"), (["minSpend": 100_001], "minSpend"),
                (["stock": 0], "stock"), (["stock": 1_000_001], "stock"),
                (["perUser": 0], "perUser"), (["perUser": 11], "perUser"),
                (["validDays": 0], "validDays"), (["validDays": 366], "validDays"),
                (["title": " "], "title"), (["title": String(repeating: "券", count: 41)], "title"),
                (["endsAt": CouponFixture.time(now.addingTimeInterval(-60))], "endsAt"),
                (["endsAt": CouponFixture.time(now.addingTimeInterval(91 * 86400))], "endsAt"),
                (["endsAt": "tomorrow"], "endsAt"), (["startsAt": "soon"], "startsAt"),
            ]
            for (change, field) in cases {
                var body: [String: Any] = [
                    "title": "券", "faceValue": 5, "stock": 5,
                    "endsAt": CouponFixture.time(now.addingTimeInterval(3600)),
                ]
                body.merge(change) { $1 }
                let response = try await client.send(
                    .post, "/v1/stores/\(shop.storeID)/coupons", body: body, token: shop.manager.token)
                #expect(response.status == .badRequest && response.problemCode == "invalid_coupon", "\(change)")
                let detail = try response.json()["detail"] as? String ?? ""
                #expect(detail.contains(field), "\(change): \(detail)")
            }
            // A wrong JSON type is the body's error.
            let typed = try await client.send(
                .post, "/v1/stores/\(shop.storeID)/coupons",
                body: ["title": "券", "faceValue": "5", "stock": 5, "endsAt": CouponFixture.time(now + 3600)],
                token: shop.manager.token)
            #expect(typed.problemCode == "invalid_body")
            let count = try await app.database.query("SELECT count(*)::int FROM coupons")
            #expect(try count[0].decode(Int.self) == 0)
        }
    }
}

/// `couponCount` on the store: its live coupons with stock left, as every store answer tells it.
@Suite struct StoreCouponCountTests {
    @Test func theStoreCountsItsLiveCouponsWithStockLeft() async throws {
        try await TestApp.run(configure: { $0.cacheFreshness = .seconds(300) }) { client, app in
            let shop = try await CouponFixture.make(client, app)
            let eater = try await client.register("数券人")
            func count() async throws -> Int? {
                await app.settle()
                return try await client.send(.get, "/v1/stores/\(shop.storeID)").json()["couponCount"] as? Int
            }
            #expect(try await count() == 0)
            // MUT: one live, one upcoming
            let one = try #require(try await shop.offer(client, stock: 1)["id"] as? String)
            _ = try await shop.offer(
                client, extra: ["startsAt": CouponFixture.time(Date().addingTimeInterval(3600))])
            // validate
            #expect(try await count() == 1)
            #expect(try await CouponFixture.claim(client, one, eater).status == .created)
            #expect(try await count() == 0)
            let two = try #require(try await shop.offer(client)["id"] as? String)
            #expect(try await count() == 1)
            #expect(
                try await client.send(.delete, "/v1/coupons/\(two)", token: shop.manager.token).status == .noContent)
            #expect(try await count() == 0)
        }
    }
}
