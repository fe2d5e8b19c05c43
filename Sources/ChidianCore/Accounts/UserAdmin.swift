import Foundation

/// The account tasks of `chidian user …`, as functions the tests call directly.
public struct UserAdmin: Sendable {
    package let users: UserRepository
    package let sessions: SessionRepository
    package let passwords: Passwords
    package let deletion: AccountDeletion

    public init(database: Database, config: AppConfiguration) {
        users = UserRepository(database: database)
        sessions = SessionRepository(
            database: database, lifetime: config.sessionLifetime, maxLifetime: config.sessionMaxLifetime)
        passwords = Passwords(cost: config.bcryptCost)
        deletion = AccountDeletion(database: database)
    }

    /// Deletes an account by name under the same rule as `DELETE /v1/me` (409 `stores_remain` alike).
    public func delete(name: String) async throws -> AccountDeletion.Report {
        guard let credentials = try await users.credentials(name: name) else {
            throw AccountError.userNotFound("No user is named \(name).")
        }
        return try await deletion.delete(userID: credentials.id)
    }

    /// Creates a user of any role, admins included; the same name and password rules as registration.
    public func create(name: String, password: String, role: Role) async throws -> UserView {
        let name = try AccountRules.validName(name)
        let password = try AccountRules.checkPassword(password)
        return try await users.create(name: name, passwordHash: try await passwords.hash(password), role: role)
    }

    public func list() async throws -> [UserView] {
        try await users.list()
    }

    public func setRole(name: String, role: Role) async throws {
        guard try await users.setRole(name: name, role: role) else {
            throw AccountError.userNotFound("No user is named \(name).")
        }
    }

    /// Sets a new random password, revokes every session and returns the password to hand over.
    public func resetPassword(name: String) async throws -> String {
        guard let credentials = try await users.credentials(name: name) else {
            throw AccountError.userNotFound("No user is named \(name).")
        }
        let password = Tokens.password()
        try await users.setPassword(id: credentials.id, hash: try await passwords.hash(password), keeping: nil)
        return password
    }
}

/// A CLI failure whose description is the one line the command prints.
public struct AdminError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
