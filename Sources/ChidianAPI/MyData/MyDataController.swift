import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// A user's rights over their own data: `GET /v1/me/export` (everything held about them, as a ZIP archive) and
/// `DELETE /v1/me` (the account and everything that names it; see `AccountDeletion` for the rule).
package struct MyDataController {
    package let service: MyDataService

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/export", use: exportArchive)
        group.delete("me", use: deleteAccount)
    }

    @Sendable package func exportArchive(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.archive(for: try context.requireUser())
    }

    package struct DeleteBody: Decodable {
        package var password: String?
    }

    @Sendable package func deleteAccount(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(DeleteBody.self)
        try await service.delete(user, password: body.password, address: context.clientAddress)
        return .noContent
    }
}
