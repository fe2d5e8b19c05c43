import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianCore

/// Claims make way for other requests: while foreground traffic comes they pass their gate; alone they do not.
@Suite struct CouponYieldTests {
    @Test func claimsPassTheGateOnlyWhileOtherRequestsCome() async throws {
        try await TestApp.run { client, app in
            let shop = try await CouponFixture.make(client, app)
            let coupon = try #require(try await shop.offer(client, stock: 5)["id"] as? String)
            let diners = [try await client.register("让路1"), try await client.register("让路2")]
            let users = diners.map { AuthUser(id: $0.id, name: $0.name, role: .user, tokenHash: []) }
            // A gate that refuses at once while its one slot is held.
            let gate = AdmissionGate(limit: 1, queue: 0, maxWait: .seconds(30))
            let traffic = ForegroundTraffic(window: .seconds(3600))
            let service = CouponService(
                coupons: CouponRepository(database: app.database), stores: StoreRepository(database: app.database),
                yielding: (gate, traffic))
            let holder = AdmissionGateTests.Holder()
            async let held: Void = holder.hold(gate)
            try await holder.waitUntilInside()
            // MUT: nothing else asked of the server: the claim does not wait for the full gate
            let alone = try await service.claim(id: coupon, user: users[0], key: nil)
            #expect(!alone.replayed && alone.claim.coupon.id == coupon)
            // MUT: a page began: the claim must pass the gate, which is full
            traffic.mark()
            await #expect(throws: AdmissionGate.Busy.self) {
                try await service.claim(id: coupon, user: users[1], key: nil)
            }
            // validate: refused before anything was stored; once the slot is free it passes
            #expect(try await storedClaims(app, coupon) == 1)
            holder.letGo()
            try await held
            _ = try await service.claim(id: coupon, user: users[1], key: nil)
            #expect(try await storedClaims(app, coupon) == 2)
        }
    }

    @Test func everyRequestButAClaimIsForeground() {
        #expect(ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.post, "/v1/coupons/k1/claims"))
        #expect(ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.post, "/coupons/k1/claim"))
        #expect(!ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.get, "/v1/coupons/k1/claims"))
        #expect(!ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.post, "/v1/stores/s1/coupons"))
        #expect(!ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.get, "/v1/stores/s1"))
        #expect(!ForegroundTrafficMiddleware<AppRequestContext>.isClaim(.post, "/v1/coupons/k1/claims/x"))
    }

    @Test func trafficIsPresentForItsWindowAfterAMark() {
        let fresh = ForegroundTraffic(window: .seconds(3600))
        #expect(!fresh.isPresent)
        fresh.mark()
        #expect(fresh.isPresent)
        let instant = ForegroundTraffic(window: .zero)
        instant.mark()
        #expect(!instant.isPresent)
    }

    private func storedClaims(_ app: TestApp, _ coupon: String) async throws -> Int {
        try await app.database.query("SELECT count(*)::int FROM coupon_claims WHERE coupon_id = \(coupon)")[0]
            .decode(Int.self)
    }
}
