import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// A user's rights over their own data: `GET /v1/me/export` (everything held about them, as a ZIP archive) and
/// `DELETE /v1/me` (the account and everything that names it; see `AccountDeletion` for the rule).
struct MyDataController {
    let service: MyDataService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/export", use: exportArchive)
        group.delete("me", use: deleteAccount)
    }

    @Sendable func exportArchive(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.archive(for: try context.requireUser())
    }

    struct DeleteBody: Decodable {
        var password: String?
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(DeleteBody.self)
        try await service.delete(user, password: body.password, address: context.clientAddress)
        return .noContent
    }
}
