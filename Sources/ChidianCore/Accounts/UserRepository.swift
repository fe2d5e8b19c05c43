import Foundation
import Logging
import PostgresNIO

/// Users in PostgreSQL. Names are unique case-insensitively (a unique index on lower(name)).
public struct UserRepository: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct Credentials: Sendable {
        public let id: String
        public let name: String
        public let role: Role
        public let passwordHash: String
    }

    public func create(name: String, passwordHash: String, role: Role) async throws -> UserView {
        do {
            let rows = try await database.query(
                """
                WITH u AS (
                    INSERT INTO users (name, password_hash, role) VALUES (\(name), \(passwordHash), \(role.rawValue))
                    RETURNING *
                )
                SELECT u.id, u.name, u.role, u.avatar_image_id, u.created_at, 0, 0, 0, false FROM u
                """)
            return try UserView(row: rows[0])
        } catch let error as PSQLError where error.serverCode == .uniqueViolation {
            throw AccountError.nameTaken(name)
        }
    }

    /// A user as `viewerID` sees them (`following`); nil viewer: nobody.
    public func view(id: String, viewerID: String? = nil) async throws -> UserView? {
        try await database.query(
            """
            SELECT \(unescaped: UserView.columns),
                EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = \(viewerID) AND f.followee_id = u.id)
            FROM users u WHERE u.id = \(id)
            """
        ).first.map(UserView.init(row:))
    }

    public func credentials(name: String) async throws -> Credentials? {
        // PostgreSQL text cannot hold NUL, so no user has such a name (and the query would fail).
        guard !name.contains("\0") else { return nil }
        return try await database.query(
            "SELECT id, name, role, password_hash FROM users WHERE lower(name) = lower(\(name))"
        ).first.map { row in
            let (id, name, role, hash) = try row.decodeAll((String, String, String, String).self)
            return Credentials(id: id, name: name, role: Role(rawValue: role) ?? .user, passwordHash: hash)
        }
    }

    public func credentials(id: String) async throws -> Credentials? {
        try await database.query("SELECT id, name, role, password_hash FROM users WHERE id = \(id)").first.map { row in
            let (id, name, role, hash) = try row.decodeAll((String, String, String, String).self)
            return Credentials(id: id, name: name, role: Role(rawValue: role) ?? .user, passwordHash: hash)
        }
    }

    public func rename(id: String, to name: String) async throws -> UserView {
        do {
            try await database.query(
                "UPDATE users SET name = \(name), updated_at = now(), version = version + 1 WHERE id = \(id) AND name <> \(name)"
            )
        } catch let error as PSQLError where error.serverCode == .uniqueViolation {
            throw AccountError.nameTaken(name)
        }
        guard let user = try await view(id: id) else { throw AccountError.userNotFound("No such user.") }
        return user
    }

    /// Sets the password hash and revokes every session but `keeping` (all of them when nil), atomically.
    public func setPassword(id: String, hash: String, keeping tokenHash: [UInt8]?) async throws {
        try await database.transaction { connection in
            try await connection.rows(
                "UPDATE users SET password_hash = \(hash), updated_at = now(), version = version + 1 WHERE id = \(id)",
                logger: database.logger)
            try await SessionRepository.revokeAll(
                userID: id, keeping: tokenHash, on: connection, logger: database.logger)
        }
    }

    /// Replaces a password hash by a stronger one of the same password, unless it changed meanwhile; sessions stay.
    public func replaceHash(id: String, old: String, new: String) async throws {
        try await database.query("UPDATE users SET password_hash = \(new) WHERE id = \(id) AND password_hash = \(old)")
    }

    /// Sets the avatar to an image the user uploaded: 404 `image_not_found`, 400 `invalid_images` when not theirs.
    public func setAvatar(id: String, imageID: String) async throws -> UserView {
        guard PlausibleID.check(imageID) else { throw AccountError.imageNotFound("No such image.") }
        let rows = try await database.query("SELECT uploader_id FROM images WHERE id = \(imageID)")
        guard let row = rows.first else { throw AccountError.imageNotFound("No image \(imageID).") }
        guard try row.decodeAll(String?.self) == id else {
            throw AccountError.invalidImages("Only the uploader may use image \(imageID).")
        }
        try await database.query(
            "UPDATE users SET avatar_image_id = \(imageID), updated_at = now(), version = version + 1 WHERE id = \(id)")
        guard let user = try await view(id: id) else { throw AccountError.userNotFound("No such user.") }
        return user
    }

    public func list() async throws -> [UserView] {
        try await database.query(
            "SELECT \(unescaped: UserView.columns), false FROM users u ORDER BY lower(u.name), u.id"
        )
        .map(UserView.init(row:))
    }

    /// Changes a role by name; returns false when no such user.
    public func setRole(name: String, role: Role) async throws -> Bool {
        let rows = try await database.query(
            "UPDATE users SET role = \(role.rawValue), updated_at = now(), version = version + 1 WHERE lower(name) = lower(\(name)) RETURNING id"
        )
        return !rows.isEmpty
    }
}
