import Foundation
import Synchronization

/// The cache's store misses of concurrent requests read together (issue #45): at 200,000 stores a city's picks
/// choose among more stores than the cache holds, and each pick read its three stores in a statement of its own.
/// As group commit does: a read starts at once when fewer than `running` are under way; otherwise the ids wait,
/// and the next read to start takes every id waiting. A quiet server reads as before; a busy one reads many
/// requests' stores per statement. An id never joins a read already started, so what a request reads is never
/// older than the cache ticket it took before asking.
final class SharedStoreReads: Sendable {
    /// Reads under way at once: two keep PostgreSQL's two cores busy while a batch gathers.
    static let running = 2
    /// Ids in one statement at most; more wait for the next read.
    static let batchLimit = 400

    private struct Waiter {
        var ids: [String]
        var continuation: CheckedContinuation<[StoreView], any Error>
    }

    private struct State {
        var waiting: [Waiter] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let read: @Sendable ([String]) async throws -> [StoreView]

    /// `read` reads the stores of its ids (distinct), in any order, leaving out those it cannot find.
    init(read: @escaping @Sendable ([String]) async throws -> [StoreView]) {
        self.read = read
    }

    /// The stores among `ids` that `read` finds, in the order of `ids` (a repeated id repeated).
    func views(_ ids: [String]) async throws -> [StoreView] {
        guard !ids.isEmpty else { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.waiting.append(Waiter(ids: ids, continuation: continuation))
                guard state.running < Self.running else { return false }
                state.running += 1
                return true
            }
            // Detached: one read serves many requests, so it takes no single request's task-locals (deadline, routing).
            if start { Task.detached { await self.drain() } }
        }
    }

    /// Requests waiting for a read (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Reads batches of the waiting ids until none wait, then gives its place back.
    private func drain() async {
        while let batch = next() {
            let ids = Array(Set(batch.flatMap(\.ids)))
            do {
                let found = try await read(ids)
                let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                for waiter in batch { waiter.continuation.resume(returning: waiter.ids.compactMap { byID[$0] }) }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }

    /// The waiters the next read serves (up to `batchLimit` ids, and always at least one waiter); nil, with the
    /// place given back, when none wait.
    private func next() -> [Waiter]? {
        state.withLock { state -> [Waiter]? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            var count = 0
            var taken = 0
            for waiter in state.waiting {
                if taken > 0, count + waiter.ids.count > Self.batchLimit { break }
                count += waiter.ids.count
                taken += 1
            }
            let batch = Array(state.waiting.prefix(taken))
            state.waiting.removeFirst(taken)
            return batch
        }
    }
}
