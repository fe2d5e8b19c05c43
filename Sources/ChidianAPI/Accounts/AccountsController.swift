import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// The contract's "Accounts" routes.
struct AccountsController {
    let service: AccountService

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

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        SessionView
    > {
        var request = request
        let body = try await request.decodeJSON(RegisterBody.self)
        return JSONResponse(
            try await service.signUp(
                name: body.name, password: body.password, role: body.role,
                visitor: AccountService.visitor(context.viewer), origin: context.origin),
            status: .created)
    }

    struct LoginBody: Decodable {
        var name: String?
        var password: String?
    }

    @Sendable func login(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        SessionView
    > {
        var request = request
        let body = try await request.decodeJSON(LoginBody.self)
        return JSONResponse(
            try await service.signIn(
                name: body.name, password: body.password, address: context.clientAddress,
                visitor: AccountService.visitor(context.viewer)))
    }

    @Sendable func logout(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await service.sessions.revoke(tokenHash: user.tokenHash)
        return .noContent
    }

    @Sendable func me(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let user = try context.requireUser()
        guard let view = try await service.users.view(id: user.id) else { throw Problem.invalidToken }
        return JSONResponse(view)
    }

    struct RenameBody: Decodable {
        var name: String?
    }

    @Sendable func rename(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(RenameBody.self)
        return JSONResponse(try await service.rename(user, to: body.name))
    }

    struct PasswordBody: Decodable {
        var currentPassword: String?
        var newPassword: String?
    }

    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(PasswordBody.self)
        try await service.changePassword(
            user, current: body.currentPassword, new: body.newPassword, address: context.clientAddress)
        return .noContent
    }

    struct AvatarBody: Decodable {
        var imageId: String
    }

    @Sendable func setAvatar(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        UserView
    > {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(AvatarBody.self)
        return JSONResponse(try await service.users.setAvatar(id: user.id, imageID: body.imageId))
    }

    @Sendable func user(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<UserView> {
        let id = try context.parameters.require("id")
        guard let view = try await service.users.view(id: id, viewerID: context.viewer.user?.id) else {
            throw AccountError.userNotFound("No user \(id.prefix(64)).")
        }
        return JSONResponse(view)
    }
}
