import PostgresNIO

/// Fixed-window hit counters in PostgreSQL (`rate_buckets`, `rate_take`), shared by every server process.
/// One statement per attempt takes a hit from several buckets at once, all or none, before the work it guards.
public struct RateBuckets: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// One bucket: a key (what is counted, for whom) and how many hits its window allows.
    public struct Bucket: Sendable {
        public var key: String
        public var limit: Int

        public init(_ key: String, limit: Int) {
            self.key = key
            self.limit = limit
        }
    }

    /// Counts one hit in every bucket and returns nil, or, when any bucket is full, counts nothing and returns
    /// the seconds until it has room again.
    public func take(_ buckets: [Bucket], windowSeconds: Int) async throws -> Int? {
        let keys = buckets.map(\.key)
        let limits = buckets.map(\.limit)
        let rows = try await database.query(
            "SELECT rate_take(\(keys)::text[], \(limits)::int[], \(windowSeconds)::int)")
        let wait = try rows.first?.decode(Int.self) ?? 0
        return wait > 0 ? wait : nil
    }

    /// Gives one hit back to each live bucket (an attempt that turned out not to count, such as a sign-in
    /// with the right password).
    public func giveBack(_ keys: [String]) async throws {
        try await database.query(
            "UPDATE rate_buckets SET hits = hits - 1 WHERE key = ANY (\(keys)::text[]) AND hits > 0 AND expires_at > now()"
        )
    }

    /// A key part that is safe and short whatever a client sent: long or NUL-bearing text is replaced by its hash.
    package static func part(_ text: String) -> String {
        guard text.utf8.count > 200 || text.utf8.contains(0) else { return text }
        return "#" + Tokens.hash(text).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
