import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianApp
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

    /// A fence goes out on the listening connection, as the heartbeat does: under load, a pool with no free
    /// connection must not hold back the write that waits for it. Here the pool it is given has one connection, held
    /// by another task: the fence is still heard, and the caches keep what they hold (a fence not heard within 1 s
    /// empties them).
    @Test func aFenceNeedsNoPooledConnection() async throws {
        try await TestApp.run { client, app in
            guard let caching = app.services.caching else { return }
            let shop = try await CouponFixture.make(client, app)
            #expect(try await client.send(.get, "/v1/stores/\(shop.storeID)").status == .ok)
            let held = caching.reads.count
            #expect(held > 0)
            let busy = Database(
                url: app.url, poolSize: 1, timeout: .seconds(30), statementTimeout: .seconds(30),
                logger: TestDatabase.logger)
            try await withRunning(busy.client, logger: TestDatabase.logger) {
                let (released, release) = AsyncStream<Void>.makeStream()
                let (took, taken) = AsyncStream<Void>.makeStream()
                let holder = Task {
                    try await busy.withConnection { _ in
                        taken.yield()
                        for await _ in released { break }
                    }
                }
                for await _ in took { break }
                let sent = caching.listener.fenceStatements.load(ordering: .relaxed)
                // MUT
                await caching.listener.fence(database: busy)
                // validate: sent and heard while the only pooled connection was still held
                #expect(caching.listener.fenceStatements.load(ordering: .relaxed) == sent + 1)
                #expect(caching.reads.count == held)
                release.yield()
                try await holder.value
            }
        }
    }
}
