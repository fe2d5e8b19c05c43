import Foundation
import HTTPTypes
import Hummingbird

/// An RFC 9457 problem: every error a client sees, with a stable snake_case `code` to branch on.
public struct Problem: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: String, _ detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
    }

    public static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.code == b.code && a.detail == b.detail
    }
}

extension Problem {
    public static func badRequest(_ code: String, _ detail: String) -> Problem { Problem(.badRequest, code, detail) }
    public static func forbidden(_ code: String, _ detail: String) -> Problem { Problem(.forbidden, code, detail) }
    public static func notFound(_ code: String, _ detail: String) -> Problem { Problem(.notFound, code, detail) }
    public static func conflict(_ code: String, _ detail: String) -> Problem { Problem(.conflict, code, detail) }

    public static let loginRequired = Problem(.unauthorized, "login_required", "Sign in first.")
    public static let invalidToken = Problem(
        .unauthorized, "invalid_token", "The token is unknown, expired or revoked.")

    /// The one mapping of a feature's failure to HTTP.
    public init(_ error: any DomainError) {
        let status: HTTPResponse.Status =
            switch error.kind {
            case .invalid: .badRequest
            case .unauthenticated: .unauthorized
            case .forbidden: .forbidden
            case .notFound: .notFound
            case .conflict: .conflict
            }
        self.init(status, error.code, error.message)
    }

    public static func invalidBody(_ detail: String) -> Problem { .badRequest("invalid_body", detail) }

    /// A statement ran past the request deadline and PostgreSQL cancelled it.
    public static func queryTimeout(retryAfter: Int = 2) -> Problem {
        Problem(
            .serviceUnavailable, "query_timeout", "The request took too long and was stopped; try again shortly.",
            headers: [.retryAfter: String(retryAfter)])
    }

    /// Password hashing or review-counting searches are saturated: refused rather than queued without end.
    public static func busy(
        _ detail: String = "The server is busy checking passwords; try again shortly.", retryAfter: Int = 1
    ) -> Problem {
        Problem(.serviceUnavailable, "busy", detail, headers: [.retryAfter: String(retryAfter)])
    }

    /// A client over one of its rate limits (`RateLimits`).
    public static func rateLimited(retryAfter: Int) -> Problem {
        Problem(
            .tooManyRequests, "rate_limited", "Too many requests of this kind; try again after Retry-After seconds.",
            headers: [.retryAfter: String(retryAfter)])
    }

    public static func databaseUnavailable(retryAfter: Int = 2) -> Problem {
        Problem(
            .serviceUnavailable, "database_unavailable", "The database is unavailable; try again shortly.",
            headers: [.retryAfter: String(retryAfter)])
    }
}

/// The JSON body of a problem response.
struct ProblemBody: Encodable {
    package let type: String
    package let title: String
    package let status: Int
    package let detail: String
    package let code: String
    package let requestId: String
}

extension Problem {
    package func response(requestID: String) -> Response {
        let body = ProblemBody(
            type: "https://chidian.dev/problems/\(code.replacingOccurrences(of: "_", with: "-"))",
            title: status.reasonPhrase.isEmpty ? "Error" : status.reasonPhrase,
            status: status.code, detail: detail, code: code, requestId: requestID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
