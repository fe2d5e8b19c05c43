import Foundation
import PostgresNIO

/// Bearer sessions, stored as SHA-256 of the token; they expire after `lifetime` unused, and `maxLifetime`
/// after sign-in however much they are used (a stolen token does not live forever).
public struct SessionRepository: Sendable {
    let database: Database
    let lifetime: Duration
    let maxLifetime: Duration

    public init(database: Database, lifetime: Duration, maxLifetime: Duration = .seconds(90 * 86400)) {
        self.database = database
        self.lifetime = lifetime
        self.maxLifetime = maxLifetime
    }

    var lifetimeSeconds: Double { Double(lifetime.components.seconds) }
    var maxLifetimeSeconds: Double { Double(maxLifetime.components.seconds) }

    /// A new session for `userID`; returns the token, which is never stored.
    public func create(userID: String) async throws -> String {
        let token = Tokens.generate()
        try await database.query("""
            INSERT INTO sessions (token_hash, user_id, expires_at)
            VALUES (\(Data(Tokens.hash(token))), \(userID), now() + make_interval(secs => least(\(lifetimeSeconds), \(maxLifetimeSeconds))))
            """)
        return token
    }

    /// The user behind a live token. Use slides the expiry, written at most once a minute per session.
    public func authenticate(token: String) async throws -> AuthUser? {
        let hash = Tokens.hash(token)
        let rows = try await database.query("""
            WITH touched AS (
                UPDATE sessions SET last_used_at = now(),
                    expires_at = least(now() + make_interval(secs => \(lifetimeSeconds)), created_at + make_interval(secs => \(maxLifetimeSeconds)))
                WHERE token_hash = \(Data(hash)) AND revoked_at IS NULL AND expires_at > now()
                  AND last_used_at < now() - interval '1 minute'
            )
            SELECT u.id, u.name, u.role FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(Data(hash)) AND s.revoked_at IS NULL AND s.expires_at > now()
              AND s.created_at > now() - make_interval(secs => \(maxLifetimeSeconds))
            """)
        guard let row = rows.first else { return nil }
        let (id, name, role) = try row.decode((String, String, String).self)
        return AuthUser(id: id, name: name, role: Role(rawValue: role) ?? .user, tokenHash: hash)
    }

    public func revoke(tokenHash: [UInt8]) async throws {
        try await database.query(
            "UPDATE sessions SET revoked_at = now() WHERE token_hash = \(Data(tokenHash)) AND revoked_at IS NULL")
    }

    public func revokeAll(userID: String) async throws {
        try await database.query("UPDATE sessions SET revoked_at = now() WHERE user_id = \(userID) AND revoked_at IS NULL")
    }
}
