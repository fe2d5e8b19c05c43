import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianCore

/// The write fence (read-your-writes with the cache): a request that ran a statement on the primary waits for its
/// invalidations before answering; one that ran none (a sold-out claim answered from memory with its session
/// cached) sends no fence; fences of concurrent writes share NOTIFYs.
@Suite struct WriteFenceTests {
    @Test func onlyRequestsThatRanAStatementAreFenced() async throws {
        try await TestApp.run { client, app in
            guard let listener = app.services.caching?.listener else { return }
            let shop = try await CouponFixture.make(client, app)
            let first = try await client.register("先到")
            let late = try await client.register("后到")
            let coupon = try #require(try await shop.offer(client, stock: 1)["id"] as? String)
            #expect(try await CouponFixture.claim(client, coupon, first).status == .created)
            // the server learns the coupon is sold out from the database
            #expect(try await CouponFixture.claim(client, coupon, late).problemCode == "sold_out")
            let sent = listener.fenceStatements.load(ordering: .relaxed)
            // MUT: answered from memory, the session trusted from the cache: nothing ran, nothing to fence
            #expect(try await CouponFixture.claim(client, coupon, late).problemCode == "sold_out")
            #expect(listener.fenceStatements.load(ordering: .relaxed) == sent)

            // a write is fenced, and the writer's next read here shows it
            let list = "/v1/stores/\(shop.storeID)/coupons"
            #expect((try await client.send(.get, list).json()["items"] as? [Any])?.count == 1)
            let second = try #require(try await shop.offer(client, stock: 5)["id"] as? String)
            #expect(listener.fenceStatements.load(ordering: .relaxed) > sent)
            let items = try await client.send(.get, list).json()["items"] as? [[String: Any]]
            #expect(items?.contains { $0["id"] as? String == second } == true)
        }
    }

    @Test func concurrentWritesShareFencesAndEachReadsItsOwnWrite() async throws {
        try await TestApp.run { client, app in
            guard let listener = app.services.caching?.listener else { return }
            let shop = try await CouponFixture.make(client, app)
            let coupon = try #require(try await shop.offer(client, stock: 100)["id"] as? String)
            var users: [Session] = []
            for n in 0..<16 { users.append(try await client.register("抢券\(n)")) }
            let sent = listener.fenceStatements.load(ordering: .relaxed)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    group.addTask {
                        #expect(try await CouponFixture.claim(client, coupon, user).status == .created)
                        let mine = try await client.send(.get, "/v1/me/claims", token: user.token)
                        #expect((try mine.json()["items"] as? [Any])?.count == 1)
                    }
                }
                try await group.waitForAll()
            }
            let used = listener.fenceStatements.load(ordering: .relaxed) - sent
            #expect(used >= 1 && used <= 16)
        }
    }
}
