import Foundation
import NIOCore
import PostgresNIO

/// Bearer sessions, stored as SHA-256 of the token; they expire after `lifetime` unused, and `maxLifetime`
/// after sign-in however much they are used (a stolen token does not live forever).
public struct SessionRepository: Sendable {
    package let database: Database
    package let lifetime: Duration
    package let maxLifetime: Duration
    /// Checked sessions by token hash (`Caching.sessions`); nil checks PostgreSQL on every request.
    package let cache: ReadCache?
    /// Where slides wait for their statement (`SignalFlusher` writes them); nil slides at once.
    package let touches: SessionTouches?

    public init(
        database: Database, lifetime: Duration, maxLifetime: Duration = .seconds(90 * 86400), cache: ReadCache? = nil,
        touches: SessionTouches? = nil
    ) {
        self.database = database
        self.lifetime = lifetime
        self.maxLifetime = maxLifetime
        self.cache = cache
        self.touches = touches
    }

    var lifetimeSeconds: Double { Double(lifetime.components.seconds) }
    var maxLifetimeSeconds: Double { Double(maxLifetime.components.seconds) }

    /// A new session for `userID`; returns the token, which is never stored.
    public func create(userID: String) async throws -> String {
        let token = Tokens.generate()
        try await database.query(
            """
            INSERT INTO sessions (token_hash, user_id, expires_at)
            VALUES (\(Data(Tokens.hash(token))), \(userID), now() + make_interval(secs => least(\(lifetimeSeconds), \(maxLifetimeSeconds))))
            """)
        return token
    }

    /// The user behind a live token. Use slides the expiry, written at most once a minute per session, beside the
    /// request (`touches`; without them, at once).
    ///
    /// With the cache, a checked session is trusted from memory for up to a minute (never past its expiry), so
    /// the statement runs once a minute per session and server; revocation, a role change or a rename reaches
    /// every server through migration 016's `x:` and `u:` invalidations within the cache's freshness.
    public func authenticate(token: String) async throws -> AuthUser? {
        let hash = Tokens.hash(token)
        let check = Check(tokenHash: hash, maxLifetimeSeconds: maxLifetimeSeconds)
        guard let cache else { return try await checked(check)?.user }
        let key = ImageDigest.hex(hash)
        if let hit = cache.get(key, as: Checked.self), hit.value.until > Monotonic.nanoseconds { return hit.value.user }
        let ticket = cache.ticket()
        guard let found = try await checked(check) else { return nil }
        let trusted = min(60, max(0, found.remainingSeconds))
        let checked = Checked(user: found.user, until: Monotonic.nanoseconds + Int64(trusted * 1e9))
        cache.insert(
            key, ReadCache.Entry(value: checked, json: [], etag: ""),
            tags: ["x:" + key, "u:" + found.user.id],
            cost: 256, since: ticket)
        return found.user
    }

    /// Runs the check, a read: a request that wrote nothing else needs no cache fence (`WriteFenceMiddleware`).
    private func checked(_ check: Check) async throws -> (user: AuthUser, remainingSeconds: Double, rested: Bool)? {
        guard
            let found = try await Database.$primaryUsed.withValue(nil, operation: { try await database.run(check) })
                .first
        else { return nil }
        if found.rested {
            if let touches {
                touches.record(check.tokenHash)
            } else {
                let now = SessionTouches(database: database, lifetime: lifetime, maxLifetime: maxLifetime)
                now.record(check.tokenHash)
                try await now.write()
            }
        }
        return found
    }

    /// A session as the cache keeps it: its user, trusted until `until` (`Monotonic.nanoseconds`).
    struct Checked: Sendable {
        package var user: AuthUser
        package var until: Int64
    }

    public func revoke(tokenHash: [UInt8]) async throws {
        try await database.query(
            "UPDATE sessions SET revoked_at = now() WHERE token_hash = \(Data(tokenHash)) AND revoked_at IS NULL")
    }

    /// Every authenticated request runs this (with the cache, once a minute per session and server). A read: the
    /// sliding expiry of a session last used over a minute ago is written beside it (`SessionTouches`).
    package struct Check: PostgresPreparedStatement {
        package static let name = "session_check"
        package static let sql = """
            SELECT u.id, u.name, u.role,
                extract(epoch FROM least(s.expires_at, s.created_at + make_interval(secs => $2)) - now())::float8,
                s.last_used_at < now() - interval '1 minute'
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
              AND s.created_at > now() - make_interval(secs => $2)
            """
        package static let bindingDataTypes: [PostgresDataType] = [.bytea, .float8]

        package var tokenHash: [UInt8]
        /// The absolute lifetime: however often it is used, a session ends this long after it began.
        var maxLifetimeSeconds: Double

        package func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            try bindings.append(Data(tokenHash))
            bindings.append(maxLifetimeSeconds)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> (user: AuthUser, remainingSeconds: Double, rested: Bool) {
            let (id, name, role, remaining, rested) = try row.decodeAll((String, String, String, Double, Bool).self)
            return (
                AuthUser(id: id, name: name, role: Role(rawValue: role) ?? .user, tokenHash: tokenHash), remaining,
                rested
            )
        }
    }

    /// Revokes every session of the user but `keeping` (all when nil), in the caller's transaction: a password
    /// change keeps the session it came from, an account deletion none.
    static func revokeAll(
        userID: String, keeping tokenHash: [UInt8]? = nil, on connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.rows(
            """
            UPDATE sessions SET revoked_at = now()
            WHERE user_id = \(userID) AND revoked_at IS NULL AND token_hash <> \(Data(tokenHash ?? []))
            """, logger: logger)
    }
}
