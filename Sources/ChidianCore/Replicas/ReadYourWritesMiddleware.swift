import Foundation
import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// The position of the client's last write in the primary's WAL (`16/B374D848`).
    static let chidianLSN = Self("Chidian-LSN")!
}

/// Read-your-writes with replicas. A successful write answers with the primary's WAL position after it, in the
/// `Chidian-LSN` header and a short-lived `chidian_lsn` cookie; a read that sends either back (the header for API
/// clients, the cookie for browsers) is served by a replica only once that replica has replayed that position,
/// else by the primary. Reads without a marker may be served by any replica within the lag bound.
package struct ReadYourWritesMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    package let primary: Database
    /// How long the cookie lives: past it, every replica within the lag bound has replayed the write.
    package let markerSeconds: Int

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if request.method == .get || request.method == .head {
            return try await ReadRouting.$floor.withValue(.init(lsn: Self.marker(in: request))) {
                try await next(request, context)
            }
        }
        var response = try await next(request, context)
        guard response.status.code < 400, let lsn = try? await currentLSN() else { return response }
        response.headers[.chidianLSN] = lsn.description
        response.headers.append(
            .init(
                name: .setCookie, value: "chidian_lsn=\(lsn); Max-Age=\(markerSeconds); Path=/; HttpOnly; SameSite=Lax")
        )
        return response
    }

    private func currentLSN() async throws -> LSN? {
        try await primary.query("SELECT pg_current_wal_lsn()::text").first
            .flatMap { LSN(Substring(try $0.decode(String.self))) }
    }

    /// The later of the header's and the cookie's positions; malformed markers are ignored.
    static func marker(in request: Request) -> LSN? {
        var found: [LSN] = request.headers[values: .chidianLSN].compactMap { LSN(Substring($0)) }
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "chidian_lsn",
                    let lsn = LSN(parts[1])
                {
                    found.append(lsn)
                }
            }
        }
        return found.max()
    }

    package init(primary: Database, markerSeconds: Int) {
        self.primary = primary
        self.markerSeconds = markerSeconds
    }
}
