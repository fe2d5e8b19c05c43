import HTTPTypes

/// Limits password guessing, in PostgreSQL so every server process shares the counts. Each attempt is counted
/// before bcrypt runs (one atomic statement), per (name, address), per address, and per name from anywhere with a
/// much higher ceiling: an attacker's failures stop the attacker, not the owner signing in from elsewhere.
/// A sign-in with the right password gives its attempt back, so the counts are failures in the window.
public struct LoginThrottle: Sendable {
    public struct Policy: Sendable {
        public var windowSeconds: Int
        public var perNameAndAddress: Int
        public var perAddress: Int
        public var perName: Int

        public init(windowSeconds: Int = 15 * 60, perNameAndAddress: Int = 5, perAddress: Int = 30, perName: Int = 100)
        {
            self.windowSeconds = windowSeconds
            self.perNameAndAddress = perNameAndAddress
            self.perAddress = perAddress
            self.perName = perName
        }
    }

    /// What an attempt counted, to give back on success.
    public struct Attempt: Sendable {
        package let keys: [String]
    }

    package let buckets: RateBuckets
    package let policy: Policy

    public init(buckets: RateBuckets, policy: Policy = Policy()) {
        self.buckets = buckets
        self.policy = policy
    }

    /// Counts an attempt on `subject` (`login`: the lower-cased name; `password`: the user id) from `address`,
    /// or throws 429 `too_many_attempts` with `Retry-After` when a limit is reached (then nothing is counted).
    public func attempt(_ scope: String, subject: String, address: String?) async throws -> Attempt {
        let subject = RateBuckets.part(subject)
        let address = RateBuckets.part(address ?? "local")
        let list = [
            RateBuckets.Bucket("\(scope):na:\(subject)|\(address)", limit: policy.perNameAndAddress),
            RateBuckets.Bucket("\(scope):a:\(address)", limit: policy.perAddress),
            RateBuckets.Bucket("\(scope):n:\(subject)", limit: policy.perName),
        ]
        if let wait = try await buckets.take(list, windowSeconds: policy.windowSeconds) {
            throw Problem(
                .tooManyRequests, "too_many_attempts", "Too many failed attempts; try again in \(wait) seconds.",
                headers: [.retryAfter: String(wait)])
        }
        return Attempt(keys: list.map(\.key))
    }

    /// The password was right: the attempt does not count against anyone.
    public func succeeded(_ attempt: Attempt) async throws {
        try await buckets.giveBack(attempt.keys)
    }
}
