import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PostgresNIO

/// Turns every error into `application/problem+json`; unknown errors become a logged 500 without internals.
package struct ProblemMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let problem = Self.problem(
                for: error, request: request, logger: context.logger, route: context.endpointPath)
            return problem.response(requestID: context.id)
        }
    }

    /// `route` is the matched route's template, named in the warnings that say which routes ran out of time.
    package static func problem(
        for error: any Error, request: Request, logger: Logger, route: String? = nil
    ) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as any DomainError:
            return Problem(error)
        case is PasswordHashingBusy:
            logger.warning("password hashing saturated")
            return .busy()
        case is AdmissionGate.Busy:
            logger.warning("admission gate full")
            return .busy("The server is busy with requests like this one; try again shortly.")
        case let error as DatabaseUnavailable:
            logger.warning("database unavailable", metadata: ["reason": .string(error.reason)])
            return .databaseUnavailable()
        case let error as PSQLError where error.isConnectionFailure:
            logger.warning("database connection failed", metadata: DatabaseErrors.metadata(error))
            return .databaseUnavailable()
        case let error as PSQLError where error.serverCode == .queryCanceled:
            var metadata = DatabaseErrors.metadata(error)
            metadata["route"] = .string("\(request.method) \(route ?? "unmatched")")
            logger.warning("statement past its deadline", metadata: metadata)
            return .queryTimeout()
        case let error as PSQLError:
            if let problem = DatabaseErrors.problem(for: error) { return problem }
            logger.error("database error", metadata: DatabaseErrors.metadata(error))
            return Problem(.internalServerError, "internal_error", "An internal error occurred.")
        case let error as PostgresDecodingError:
            // Its reflection carries the cell's bytes; the column and type say enough.
            logger.error(
                "database row decoding failed",
                metadata: [
                    "psql.column": .string(error.columnName), "psql.type": .string("\(error.targetType)"),
                ])
            return Problem(.internalServerError, "internal_error", "An internal error occurred.")
        case let error as HTTPError:
            switch error.status {
            case .notFound:
                return Problem(.notFound, "not_found", "No route for \(request.method) \(request.uri.path).")
            case .contentTooLarge:
                return Problem(.contentTooLarge, "body_too_large", "The request body is too large.")
            default:
                let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
                return Problem(
                    error.status, code.isEmpty ? "http_error" : code, error.body ?? error.status.reasonPhrase)
            }
        case is NIOTooManyBytesError:
            return Problem(.contentTooLarge, "body_too_large", "The request body is too large.")
        case is DecodingError:
            return .invalidBody("The body is not valid JSON.")
        default:
            logger.error("unhandled error", metadata: ["error": .string(String(reflecting: error))])
            return Problem(.internalServerError, "internal_error", "An internal error occurred.")
        }
    }

    package init() {}
}

/// Request id and security headers on every response, errors included.
package struct ResponseHeadersMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = ProblemMiddleware.problem(
                for: error, request: request, logger: context.logger, route: context.endpointPath
            )
            .response(requestID: context.id)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xRequestID] = context.id
        return response
    }

    package init() {}
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-Id")!
    package static let xVisitorID = Self("X-Visitor-Id")!
}
