import ChidianCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// A state-changing web request's fields, read only after its CSRF token matched the browser's cookie. Forms send
/// the token as the `csrf` field (`application/x-www-form-urlencoded`, at most 64 KiB); scripts send it as the
/// `X-CSRF-Token` header. A request from another origin (by `Origin`, when the browser sends it) is refused too.
struct WebForm: Sendable {
    static let maxBytes = 64 * 1024
    /// A form with photos (`multipart/form-data`, accepted only where `maxBytes` allows it): up to nine of them,
    /// 24 MiB in all, each under the API's own image rules.
    static let maxUploadBytes = 24 * 1024 * 1024
    let fields: [String: String]
    /// The non-empty parts named `photos`, in order.
    var photos: [[UInt8]] = []

    subscript(_ name: String) -> String? { fields[name] }

    static func read(_ request: Request, context: AppRequestContext, maxBytes: Int = maxBytes) async throws
        -> WebForm
    {
        guard let web = context.web else { throw WebError.csrfFailed }
        if let origin = request.headers[.origin], let host = request.head.authority {
            guard origin == "http://\(host)" || origin == "https://\(host)" else { throw WebError.csrfFailed }
        }
        var form = WebForm(fields: [:])
        let type = request.headers[.contentType] ?? ""
        if type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            let body = try await request.body.collect(upTo: Self.maxBytes)
            form = WebForm(fields: parse(String(buffer: body)))
        } else if Multipart.isFormData(type), maxBytes > Self.maxBytes {
            let body = try await request.body.collect(upTo: maxBytes)
            let parts = try Multipart.parts(
                in: Array(body.readableBytesView), boundary: Multipart.boundary(contentType: type))
            var fields: [String: String] = [:]
            for part in parts {
                guard let name = part.name else { continue }
                if name == "photos" {
                    if !part.content.isEmpty { form.photos.append(Array(part.content)) }
                } else if fields[name] == nil {
                    fields[name] = String(decoding: part.content, as: UTF8.self)
                }
            }
            form = WebForm(fields: fields, photos: form.photos)
        }
        let sent = request.headers[.xCSRFToken] ?? form["csrf"] ?? ""
        guard constantTimeEqual(sent, web.csrfToken) else { throw WebError.csrfFailed }
        return form
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
