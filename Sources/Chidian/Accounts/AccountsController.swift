import Foundation
import HTTPTypes
import Hummingbird

/// The contract's "Accounts" routes.
struct AccountsController {
    let users: UserRepository
    let sessions: SessionRepository
    let passwords: Passwords
    let throttle: LoginThrottle
    /// A visitor who signs up or in on the same device keeps what the recommender learned of them.
    var interests: InterestRepository? = nil

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("auth/register", use: register)
        group.post("auth/login", use: login)
        group.post("auth/logout", use: logout)
        group.get("me", use: me)
        group.patch("me", use: rename)
        group.put("me/password", use: changePassword)
        group.put("me/avatar", use: setAvatar)
        group.get("users/:id", use: user)
    }

    struct RegisterBody: Decodable {
        var name: String?
        var password: String?
        var role: String?
    }

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SessionView> {
        var request = request
        let body = try await request.decodeJSON(RegisterBody.self)
        return JSONResponse(
            try await signUp(
                name: body.name, password: body.password, role: body.role, visitor: Self.visitor(context.viewer)),
            status: .created)
    }

    /// Registration's rules, for the API and the web client alike.
    func signUp(name rawName: String?, password rawPassword: String?, role rawRole: String?, visitor: String? = nil)
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
        await adopt(visitor: visitor, userID: user.id)
        return SessionView(token: token, user: user)
    }

    static func visitor(_ viewer: Viewer) -> String? {
        if case .visitor(let id) = viewer { return id }
        return nil
    }

    /// Moves the visitor's interests, opens and exploration counts to the account. Sign-in stands if this fails
    /// (the transaction then moved nothing); the failure is logged.
    func adopt(visitor: String?, userID: String) async {
        guard let visitor, let interests else { return }
        do {
            try await interests.merge(visitor: visitor, intoUser: userID, at: Date())
        } catch {
            interests.database.logger.warning(
                "visitor history not merged", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    struct LoginBody: Decodable {
        var name: String?
        var password: String?
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<SessionView> {
        var request = request
        let body = try await request.decodeJSON(LoginBody.self)
        return JSONResponse(
            try await signIn(
                name: body.name, password: body.password, address: context.clientAddress,
                visitor: Self.visitor(context.viewer)))
    }

    /// Sign-in's rules and throttle, for the API and the web client alike.
    func signIn(name rawName: String?, password rawPassword: String?, address: String?, visitor: String? = nil)
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

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await sessions.revoke(tokenHash: user.tokenHash)
        return .noContent
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let user = try context.requireUser()
        guard let view = try await users.view(id: user.id) else { throw Problem.invalidToken }
        return JSONResponse(view)
    }

    struct RenameBody: Decodable {
        var name: String?
    }

    @Sendable func rename(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(RenameBody.self)
        return JSONResponse(try await rename(user, to: body.name))
    }

    func rename(_ user: AuthUser, to name: String?) async throws -> UserView {
        try await users.rename(id: user.id, to: try AccountRules.validName(name))
    }

    struct PasswordBody: Decodable {
        var currentPassword: String?
        var newPassword: String?
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(PasswordBody.self)
        try await changePassword(
            user, current: body.currentPassword, new: body.newPassword, address: context.clientAddress)
        return .noContent
    }

    /// Password change's rules and throttle; every other session of the user is revoked.
    func changePassword(_ user: AuthUser, current rawCurrent: String?, new rawNew: String?, address: String?)
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

    struct AvatarBody: Decodable {
        var imageId: String
    }

    @Sendable func setAvatar(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(AvatarBody.self)
        return JSONResponse(try await users.setAvatar(id: user.id, imageID: body.imageId))
    }

    @Sendable func user(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let id = try context.parameters.require("id")
        guard let view = try await users.view(id: id, viewerID: context.viewer.user?.id) else {
            throw AccountError.userNotFound("No user \(id.prefix(64)).")
        }
        return JSONResponse(view)
    }
}
