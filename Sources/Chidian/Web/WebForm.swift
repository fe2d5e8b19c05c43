import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// A state-changing web request's fields, read only after its CSRF token matched the browser's cookie. Forms send
/// the token as the `csrf` field (`application/x-www-form-urlencoded`, at most 64 KiB); scripts send it as the
/// `X-CSRF-Token` header. A request from another origin (by `Origin`, when the browser sends it) is refused too.
struct WebForm: Sendable {
    static let maxBytes = 64 * 1024
    let fields: [String: String]

    subscript(_ name: String) -> String? { fields[name] }

    static func read(_ request: Request, context: AppRequestContext) async throws -> WebForm {
        guard let web = context.web else { throw WebError.csrfFailed }
        if let origin = request.headers[.origin], let host = request.head.authority {
            guard origin == "http://\(host)" || origin == "https://\(host)" else { throw WebError.csrfFailed }
        }
        var fields: [String: String] = [:]
        let type = request.headers[.contentType]?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            let body = try await request.body.collect(upTo: maxBytes)
            fields = parse(String(buffer: body))
        }
        let sent = request.headers[.xCSRFToken] ?? fields["csrf"] ?? ""
        guard constantTimeEqual(sent, web.csrfToken) else { throw WebError.csrfFailed }
        return WebForm(fields: fields)
    }

    /// `a=1&b=%E7%81%AB+%E9%94%85` → ["a": "1", "b": "火 锅"]; the first of a repeated name wins.
    static func parse(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&").prefix(256) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            let name = decode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return fields
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count, !x.isEmpty else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// Web-only refusals; shown as pages like every other problem.
enum WebError: Error {
    case csrfFailed
}

extension HTTPField.Name {
    static let origin = Self("Origin")!
}
