import Foundation
import HTTPTypes
import Hummingbird

/// A user's rights over their own data: the export archive and the account's deletion; for the API and the web.
package struct MyDataService: Sendable {
    package let accounts: AccountService
    package let export: DataExport
    package let deletion: AccountDeletion
    package let clock: @Sendable () -> Date

    package init(
        accounts: AccountService, export: DataExport, deletion: AccountDeletion, clock: @escaping @Sendable () -> Date
    ) {
        self.accounts = accounts
        self.export = export
        self.deletion = deletion
        self.clock = clock
    }
    /// The statement deadline of an export's reads and a deletion's batches, above the request deadlines
    /// (`READ_STATEMENT_TIMEOUT_MS`, `STATEMENT_TIMEOUT_MS`): a section of 10,000 reviews is one statement, and a
    /// batch of reviews took about a second on a loaded machine. Both are bounded by their own limits.
    package static let deadline: Duration = .seconds(30)

    /// The archive as a download, for the API and the web client alike. Everything is read before the first byte
    /// is sent (a failure is still a problem response); the photos then stream one at a time.
    package func archive(for user: AuthUser) async throws -> Response {
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

    /// Deletion's rules, for the API and the web client: the password as for a password change (401
    /// `wrong_password`, counted by the same throttle), then `AccountDeletion`.
    package func delete(_ user: AuthUser, password rawPassword: String?, address: String?) async throws {
        try await accounts.verifyPassword(user, rawPassword, address: address, wrong: "The password is wrong.")
        _ = try await StatementDeadlines.$route.withValue(Self.deadline) { try await deletion.delete(userID: user.id) }
    }
}
