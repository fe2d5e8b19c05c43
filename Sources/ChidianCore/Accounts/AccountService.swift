import Foundation

/// The rules of accounts: registering, signing in (throttled), renaming, passwords; for the API and the web.
package struct AccountService: Sendable {
    package let users: UserRepository
    package let sessions: SessionRepository
    package let passwords: Passwords
    package let throttle: LoginThrottle
    /// A visitor who signs up or in on the same device keeps what the recommender learned of them.
    package let signals: InterestSignals?
    /// The time a merge is queued at: the one the signals before it were recorded with.
    package let clock: @Sendable () -> Date

    package init(
        users: UserRepository, sessions: SessionRepository, passwords: Passwords, throttle: LoginThrottle,
        signals: InterestSignals? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.users = users
        self.sessions = sessions
        self.passwords = passwords
        self.throttle = throttle
        self.signals = signals
        self.clock = clock
    }

    /// Registration's rules, for the API and the web client alike.
    package func signUp(
        name rawName: String?, password rawPassword: String?, role rawRole: String?, visitor: String? = nil,
        origin: TrustOrigin? = nil
    )
        async throws -> SessionView
    {
        let name = try AccountRules.validName(rawName)
        let password = try AccountRules.checkPassword(rawPassword)
        let role = try AccountRules.registrableRole(rawRole)
        if try await users.credentials(name: name) != nil {
            throw AccountError.nameTaken(name)
        }
        let user = try await users.create(name: name, passwordHash: try await passwords.hash(password), role: role)
        let token = try await sessions.create(userID: user.id)
        try await origin?.record(userID: user.id, on: users.database)
        await adopt(visitor: visitor, userID: user.id)
        return SessionView(token: token, user: user)
    }

    package static func visitor(_ viewer: Viewer) -> String? {
        if case .visitor(let id) = viewer { return id }
        return nil
    }

    /// Moves the visitor's interests, opens and exploration counts to the account (within the signals' interval).
    /// Sign-in stands if this fails; the failure is logged.
    func adopt(visitor: String?, userID: String) async {
        guard let visitor, let signals else { return }
        await signals.merge(visitor: visitor, intoUser: userID, at: clock())
    }

    /// Sign-in's rules and throttle, for the API and the web client alike.
    package func signIn(name rawName: String?, password rawPassword: String?, address: String?, visitor: String? = nil)
        async throws -> SessionView
    {
        let name = (rawName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw AccountError.nameRequired }
        // Counted before any password work, so a burst cannot outrun the limit.
        let attempt = try await throttle.attempt("login", subject: name.lowercased(), address: address)
        // No stored password contains a NUL or runs past 72 bytes; bcrypt would ignore what follows.
        let password = try AccountRules.checkPasswordBytes(rawPassword ?? "")
        guard let credentials = try await users.credentials(name: name) else {
            throw AccountError.userNotFound("No user is named \(name).")
        }
        guard try await passwords.verify(password, hash: credentials.passwordHash) else {
            throw AccountError.wrongPassword("The password is wrong.")
        }
        try await throttle.succeeded(attempt)
        if passwords.needsRehash(credentials.passwordHash) {
            try await users.replaceHash(
                id: credentials.id, old: credentials.passwordHash, new: try await passwords.hash(password))
        }
        let token = try await sessions.create(userID: credentials.id)
        await adopt(visitor: visitor, userID: credentials.id)
        guard let user = try await users.view(id: credentials.id) else {
            throw AccountError.userNotFound("No such user.")
        }
        return SessionView(token: token, user: user)
    }

    package func rename(_ user: AuthUser, to name: String?) async throws -> UserView {
        try await users.rename(id: user.id, to: try AccountRules.validName(name))
    }

    /// Password change's rules and throttle; every other session of the user is revoked.
    package func changePassword(_ user: AuthUser, current rawCurrent: String?, new rawNew: String?, address: String?)
        async throws
    {
        let newPassword = try AccountRules.checkPassword(rawNew)
        try await verifyPassword(user, rawCurrent, address: address, wrong: "The current password is wrong.")
        try await users.setPassword(id: user.id, hash: try await passwords.hash(newPassword), keeping: user.tokenHash)
    }

    /// The signed-in user's own password, as a password change and an account deletion ask for it: counted by
    /// the password throttle, else 401 `wrong_password` saying `wrong`.
    func verifyPassword(_ user: AuthUser, _ raw: String?, address: String?, wrong: String) async throws {
        let attempt = try await throttle.attempt("password", subject: user.id, address: address)
        let refusal = AccountError.wrongPassword(wrong)
        guard let password = try? AccountRules.checkPasswordBytes(raw ?? "") else { throw refusal }
        guard let credentials = try await users.credentials(id: user.id) else { throw Problem.invalidToken }
        guard try await passwords.verify(password, hash: credentials.passwordHash) else { throw refusal }
        try await throttle.succeeded(attempt)
    }
}
