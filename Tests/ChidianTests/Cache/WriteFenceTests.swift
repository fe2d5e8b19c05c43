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
    /// connection must not hold back the write that waits for it. Here the listener's pool has two connections: its
    /// own, and one held by another task. The fence is still heard, and the cache keeps what it holds (a fence not
    /// heard within 1 s empties it).
    @Test func aFenceNeedsNoPooledConnection() async throws {
        try await TestDatabase.withFresh { _, url in
            let pool = Database(
                url: url, poolSize: 2, timeout: .seconds(30), statementTimeout: .seconds(30),
                logger: TestDatabase.logger)
            try await withRunning(pool.client, logger: TestDatabase.logger) {
                let cache = ReadCache(name: "test", capacityBytes: 1 << 20, freshness: .seconds(3600))
                let listener = CacheListener(client: pool.client, caches: [cache], logger: TestDatabase.logger)
                let listening = Task<Void, Never> { try? await listener.run() }
                await listener.started()
                let checked = await Result(catching: {
                    try await Self.fenceWhileTheOtherConnectionIsHeld(listener, cache, pool)
                })
                listening.cancel()
                // timing: a grace that checks nothing, as `TestApp.listening`'s
                _ = await finished(listening, within: .seconds(10))
                try checked.get()
            }
        }
    }

    static func fenceWhileTheOtherConnectionIsHeld(
        _ listener: CacheListener, _ cache: ReadCache, _ pool: Database
    ) async throws {
        cache.insert("k", ReadCache.Entry(value: "v") { Array($0.utf8) }, tags: [], cost: 1, since: cache.ticket())
        let (released, release) = AsyncStream<Void>.makeStream()
        let (took, taken) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await pool.withConnection { _ in
                taken.yield()
                for await _ in released { break }
            }
        }
        for await _ in took { break }
        let sent = listener.fenceStatements.load(ordering: .relaxed)
        // MUT
        let heard = await listener.fence()
        // validate: sent and heard while the pool's other connection was still held
        #expect(listener.fenceStatements.load(ordering: .relaxed) == sent + 1)
        #expect(heard, "a heard fence says so (TestApp.settle goes on until one is)")
        #expect(cache.count == 1)
        release.yield()
        try await holder.value
    }
}
