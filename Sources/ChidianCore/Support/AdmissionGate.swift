import Synchronization

/// At most `limit` tasks inside at once; the next `queue` wait in order for up to `maxWait`, and any more, or any
/// that waited that long, are refused (`Busy`). For work whose cost is bounded but whose concurrency must be too:
/// a few searches that count reviews keep a core busy each, so sixteen at once would starve every other request.
public final class AdmissionGate: Sendable {
    public struct Busy: Error, CustomStringConvertible {
        public var description: String { "admission gate full" }
    }

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var inside = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    public let limit: Int
    public let queue: Int
    public let maxWait: Duration
    /// While others wait, a slot rests this many times as long as its task took before the next may have it, so
    /// the work behind the gate gets at most `limit / (1 + rest)` cores however many queue for it; a lone client
    /// is not slowed.
    public let rest: Double
    /// Whether slots rest now (always, unless given): work that yields to other requests rests only while they come.
    public let restsWhile: @Sendable () -> Bool
    private let state = Mutex(State())

    public init(
        limit: Int, queue: Int, maxWait: Duration, rest: Double = 0,
        restsWhile: @escaping @Sendable () -> Bool = { true }
    ) {
        self.limit = max(1, limit)
        self.queue = max(0, queue)
        self.maxWait = maxWait
        self.rest = rest
        self.restsWhile = restsWhile
    }

    /// Whether a task arriving now would wait (or be refused).
    public var isFull: Bool { state.withLock { $0.inside >= limit } }

    /// Runs `body` inside; `waiting: false` is refused at once rather than queued (work that can wait for a
    /// free slot without anyone waiting on it, such as a refill beside a request).
    public func run<T: Sendable>(waiting: Bool = true, _ body: () async throws -> T) async throws -> T {
        guard await enter(waiting: waiting) else { throw Busy() }
        let started = ContinuousClock.now
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        if rest > 0, state.withLock({ !$0.waiting.isEmpty }), restsWhile() {
            let rest = (ContinuousClock.now - started) * self.rest
            // The answer is ready; the rest delays only the next task, not this one.
            Task {
                try? await Task.sleep(for: rest)
                self.leave()
            }
        } else {
            leave()
        }
        return try result.get()
    }

    private func enter(waiting: Bool) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withCheckedContinuation { continuation in
            let now: Bool? = state.withLock { state in
                if state.inside < limit {
                    state.inside += 1
                    return true
                }
                guard waiting, state.waiting.count < queue else { return false }
                state.waiting.append(Waiter(id: id, continuation: continuation))
                return nil
            }
            guard let now else {
                let maxWait = self.maxWait
                Task { [weak self] in
                    try? await Task.sleep(for: maxWait)
                    self?.expire(id)
                }
                return
            }
            continuation.resume(returning: now)
        }
    }

    /// How many wait now.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// How many are inside now (a resting slot counts until its rest ends).
    var inside: Int { state.withLock { $0.inside } }

    /// A waiter still queued after `maxWait` gives up.
    private func expire(_ id: UInt64) {
        let expired = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiting.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }

    /// Hands the slot to the first waiter, if any.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.inside -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
