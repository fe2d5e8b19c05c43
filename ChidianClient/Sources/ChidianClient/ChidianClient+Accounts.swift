/// 登录 / 注册: the session token is kept on success and sent from then on.
extension ChidianClient {
    /// Creates an account and signs in as it.
    @discardableResult
    public func register(name: String, password: String, role: Role = .user) async throws -> User {
        let output = try await api.register(
            body: .json(.init(name: name, password: password, role: .init(rawValue: role.rawValue))))
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        let new = try created.body.json
        await session.signIn(new.token)
        return try mirror(new.user)
    }

    /// Signs in.
    @discardableResult
    public func login(name: String, password: String) async throws -> User {
        let output = try await api.login(body: .json(.init(name: name, password: password)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        let new = try ok.body.json
        await session.signIn(new.token)
        return try mirror(new.user)
    }

    /// Revokes the token on the server and forgets it; the client is anonymous (its visitor id) again.
    public func logout() async throws {
        let output = try await api.logout()
        await session.signOut()
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }

    /// The signed-in user.
    public func me() async throws -> User {
        let output = try await api.getMe()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }
}
