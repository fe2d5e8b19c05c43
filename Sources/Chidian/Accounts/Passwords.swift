import HummingbirdBcrypt
import NIOPosix

/// bcrypt, run off the event loops (a cost-12 hash takes a few hundred milliseconds).
public struct Passwords: Sendable {
    public let cost: Int

    public init(cost: Int) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: UInt8(cost)) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Whether `hash` was made at a lower cost than configured (say, imported), so the next sign-in with the
    /// right password should store a new one.
    public func needsRehash(_ hash: String) -> Bool {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
        guard parts.count >= 2, let hashCost = Int(parts[1]) else { return false }
        return hashCost < cost
    }
}
