import Foundation
import OpenAPIRuntime

/// Every refusal the API answers (`application/problem+json`) as one Swift error: the contract's `code` as an enum,
/// with the HTTP status, title and detail. A code this version of the client does not know is kept as
/// `.unknown(code)`, never a crash.
public struct ChidianError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    public var status: Int
    public var title: String
    public var detail: String
    /// The server's `X-Request-Id`: quote it when reporting a problem.
    public var requestId: String?

    public init(code: Code, status: Int, title: String, detail: String, requestId: String? = nil) {
        self.code = code
        self.status = status
        self.title = title
        self.detail = detail
        self.requestId = requestId
    }

    init(_ problem: Components.Schemas.Problem) {
        self.init(
            code: Code(rawValue: problem.code), status: problem.status, title: problem.title, detail: problem.detail,
            requestId: problem.requestId)
    }

    public var description: String { "\(status) \(code.rawValue): \(detail)" }
}

extension ChidianError {
    /// The error an operation's answer carries when it is not the success the caller expected: the typed
    /// `Problem` of a documented error response, or the problem+json body of an undocumented status.
    ///
    /// Every generated `Output` enum keeps its error cases' `Problem` inside a response struct's `body` enum;
    /// reflection finds it, so one function serves every operation instead of a switch per operation.
    static func from(_ output: Any) async -> ChidianError {
        if let problem = problem(in: output, depth: 0) { return ChidianError(problem) }
        let mirror = Mirror(reflecting: output)
        if let child = mirror.children.first, child.label == "undocumented" {
            // `undocumented(statusCode: Int, UndocumentedPayload)`: a status the document does not list for this
            // operation; its body may still be a problem.
            let parts = Mirror(reflecting: child.value).children.map(\.value)
            let status = parts.first as? Int ?? 0
            if let body = (parts.last as? UndocumentedPayload)?.body,
                let data = try? await Data(collecting: body, upTo: 1 << 20),
                let problem = try? JSONDecoder().decode(Components.Schemas.Problem.self, from: data)
            {
                return ChidianError(problem)
            }
            return ChidianError(
                code: .unknown(""), status: status, title: "Undocumented answer",
                detail: "The server answered \(status), which this client's document does not list.")
        }
        return ChidianError(
            code: .unknown(""), status: 0, title: "Unexpected answer",
            detail: "The server's answer was not the one asked for: \(mirror.children.first?.label ?? "\(output)").")
    }

    private static func problem(in value: Any, depth: Int) -> Components.Schemas.Problem? {
        if let problem = value as? Components.Schemas.Problem { return problem }
        guard depth < 4 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let problem = problem(in: child.value, depth: depth + 1) { return problem }
        }
        return nil
    }
}
