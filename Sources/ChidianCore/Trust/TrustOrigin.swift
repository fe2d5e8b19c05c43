import Foundation
import PostgresNIO

/// Where a request came from, as the trust judge remembers it (`shared_origin`, docs/TRUST.md): the client's
/// address and the device's visitor id. Only keyed hashes of them are stored (`trust_origin_hash`).
public struct TrustOrigin: Sendable, Equatable {
    public var address: String?
    public var visitor: String?

    /// A loopback address is no origin: it is the machine itself, or a proxy whose clients it hides.
    public init(address: String?, visitor: String?) {
        self.address = address.flatMap { $0.hasPrefix("127.") || $0 == "::1" ? nil : $0 }
        self.visitor = visitor
    }

    /// Remembers that `userID` signed up from here (a review's origin is stored by its insert).
    package func record(userID: String, on database: Database) async throws {
        guard address != nil || visitor != nil else { return }
        try await database.query(
            """
            INSERT INTO trust_origins AS t (user_id, origin)
            SELECT \(userID), trust_origin_hash(x.kind, x.value)
            FROM (VALUES ('a', \(address)::text), ('v', \(visitor)::text)) AS x (kind, value)
            WHERE x.value IS NOT NULL
            ON CONFLICT (user_id, origin) DO NOTHING
            """)
    }
}
