import HummingbirdBcrypt
import NIOCore
import NIOPosix
import Synchronization

/// bcrypt (a cost-12 hash takes a few hundred milliseconds), on its own threads with a bounded queue.
public struct Passwords: Sendable {
    public let cost: Int
    package let pool: BcryptPool

    public init(cost: Int, pool: BcryptPool = .unbounded) {
        self.cost = cost
        self.pool = pool
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await pool.run { Bcrypt.hash(password, cost: UInt8(cost)) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await pool.run { Bcrypt.verify(password, hash: hash) }
    }

    /// Whether `hash` was made at a lower cost than configured (say, imported), so the next sign-in with the
    /// right password should store a new one.
    public func needsRehash(_ hash: String) -> Bool {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
        guard parts.count >= 2, let hashCost = Int(parts[1]) else { return false }
        return hashCost < cost
    }
}

/// Password hashing's own threads, one per core, so file and image work never waits behind it, and a bounded
/// number of hashes waiting or running per server: beyond it a request is refused at once (503 `busy`) instead of
/// queueing without end behind a flood of registrations.
public final class BcryptPool: Sendable {
    static let coreThreads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// For the CLI's own work (a seed's hashes), which bounds its concurrency itself.
    public static let unbounded = BcryptPool(capacity: .max)

    private let threads: NIOThreadPool
    public let capacity: Int
    private let admitted = Mutex(0)

    public init(capacity: Int, threads: NIOThreadPool? = nil) {
        self.threads = threads ?? Self.coreThreads
        self.capacity = capacity
    }

    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        let entered = admitted.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard entered else { throw PasswordHashingBusy() }
        defer { admitted.withLock { $0 -= 1 } }
        return try await threads.runIfActive(body)
    }
}

/// Every password-hashing slot is taken; the client should retry shortly.
public struct PasswordHashingBusy: Error, CustomStringConvertible {
    public var description: String { "password hashing is saturated" }
}
