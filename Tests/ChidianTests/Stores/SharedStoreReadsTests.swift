import Foundation
import Synchronization
import Testing

@testable import ChidianCore

/// `SharedStoreReads`: concurrent requests' store misses read in shared statements, each request given exactly its
/// own stores, and a failed read failing only the requests it served.
@Suite struct SharedStoreReadsTests {
    /// Holds the first `held` reads until opened, and counts every read with its ids.
    final class Gate: Sendable {
        private let state = Mutex((held: 0, waiting: [CheckedContinuation<Void, Never>](), open: false))
        let reads = Mutex([[String]]())
        let holding: Int

        init(holding: Int) { self.holding = holding }

        func pass(_ ids: [String]) async {
            reads.withLock { $0.append(ids) }
            await withCheckedContinuation { continuation in
                let go = state.withLock { state -> Bool in
                    guard !state.open, state.held < holding else { return true }
                    state.held += 1
                    state.waiting.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
        }

        var held: Int { state.withLock { $0.held } }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Yields until `condition` holds; fails after 10 s rather than hang.
    static func until(_ condition: () -> Bool) async throws {
        // timing: a bound that only turns a hang into a failure; the condition, not time, decides the outcome
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            // timing: as above
            guard ContinuousClock.now < deadline else { throw TestFailure("never happened") }
            await Task.yield()
        }
    }

    @Test func waitingRequestsShareTheNextReadAndEachGetsItsOwnStores() async throws {
        try await TestApp.run { client, app in
            // setup: 12 stores
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            var ids: [String] = []
            for n in 0..<12 {
                ids.append(try await StoreFixture.store(client, manager, name: "店\(n)", categoryID: category).id)
            }
            let gate = Gate(holding: SharedStoreReads.running)
            let database = app.database
            let reads = SharedStoreReads { wanted in
                await gate.pass(wanted)
                return try await StoreRepository.readShared(wanted, from: database)
            }
            // MUT: two requests start the two reads and are held there; 30 more wait meanwhile
            let asks: [[String]] = (0..<32).map { n in
                [ids[n % 12], ids[(n * 5 + 1) % 12], "s_unknown\(n)", ids[n % 12]]
            }
            let got = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
                for (n, ask) in asks.enumerated() {
                    group.addTask { (n, try await reads.views(ask).map(\.id)) }
                    // One at a time into the two reads, then all the rest while both are held.
                    if n < SharedStoreReads.running { try await Self.until { gate.held == n + 1 } }
                }
                try await Self.until { reads.waitingCount == asks.count - SharedStoreReads.running }
                gate.open()
                var got: [Int: [String]] = [:]
                for try await (n, ids) in group { got[n] = ids }
                return got
            }
            // validate: three reads in all (the two held, then one for all 30 waiting, its ids distinct)
            let done = gate.reads.withLock { $0 }
            #expect(done.count == 3)
            #expect(done.last.map { Set($0).count == $0.count } == true)
            #expect(done.last.map(Set.init) == Set(asks.dropFirst(2).flatMap { $0 }))
            // each got its own stores, in its order, the unknown left out, the repeated one twice
            for (n, ask) in asks.enumerated() {
                #expect(got[n] == ask.filter { !$0.hasPrefix("s_unknown") }, "request \(n)")
            }
            let view = try #require(try await reads.views([ids[3]]).first)
            #expect(view.name == "店3" && view.category.id == category)
        }
    }

    @Test func aFailedReadFailsOnlyTheRequestsItServedAndReadsGoOn() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await StoreFixture.store(client, manager, name: "店", categoryID: category).id
            let database = app.database
            let reads = SharedStoreReads { wanted in
                if wanted.contains("s_boom") { throw PlaceError.nothingToPick }
                return try await StoreRepository.readShared(wanted, from: database)
            }
            await #expect(throws: PlaceError.self) { try await reads.views(["s_boom", store]) }
            #expect(try await reads.views([store]).map(\.id) == [store])
            #expect(reads.waitingCount == 0)
        }
    }
}
