import Foundation
import HTTPTypes
import Hummingbird

/// A user's rights over their own data: `GET /v1/me/export` (everything held about them, as a ZIP archive) and
/// `DELETE /v1/me` (the account and everything that names it; see `AccountDeletion` for the rule).
struct MyDataController {
    let accounts: AccountsController
    let export: DataExport
    let deletion: AccountDeletion
    let clock: @Sendable () -> Date
    /// The statement deadline of an export's reads and a deletion's batches, above the request deadlines
    /// (`READ_STATEMENT_TIMEOUT_MS`, `STATEMENT_TIMEOUT_MS`): a section of 10,000 reviews is one statement, and a
    /// batch of reviews took about a second on a loaded machine. Both are bounded by their own limits.
    static let deadline: Duration = .seconds(30)

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("me/export", use: exportArchive)
        group.delete("me", use: deleteAccount)
    }

    @Sendable func exportArchive(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await archive(for: try context.requireUser())
    }

    /// The archive as a download, for the API and the web client alike. Everything is read before the first byte
    /// is sent (a failure is still a problem response); the photos then stream one at a time.
    func archive(for user: AuthUser) async throws -> Response {
        let now = clock()
        let export = self.export
        let prepared = try await StatementDeadlines.$route.withValue(Self.deadline) {
            try await export.prepare(userID: user.id, at: now)
        }
        guard let prepared else { throw Problem.invalidToken }
        let body = ResponseBody { writer in
            try await export.write(prepared, at: now) { bytes in try await writer.write(ByteBuffer(bytes: bytes)) }
            try await writer.finish(nil)
        }
        let day = String(ISO8601DateFormatter().string(from: now).prefix(10))
        let headers: HTTPFields = [
            .contentType: "application/zip",
            .contentDisposition: "attachment; filename=\"chidian-export-\(day).zip\"",
            .cacheControl: "no-store",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }

    struct DeleteBody: Decodable {
        var password: String?
    }

    @Sendable func deleteAccount(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(DeleteBody.self)
        try await delete(user, password: body.password, address: context.clientAddress)
        return .noContent
    }

    /// Deletion's rules, for the API and the web client: the password as for a password change (401
    /// `wrong_password`, counted by the same throttle), then `AccountDeletion`.
    func delete(_ user: AuthUser, password rawPassword: String?, address: String?) async throws {
        try await accounts.verifyPassword(user, rawPassword, address: address, wrong: "The password is wrong.")
        _ = try await StatementDeadlines.$route.withValue(Self.deadline) { try await deletion.delete(userID: user.id) }
    }
}
