import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization

/// A browser in miniature for the web client's tests: it keeps the cookies the server sets, sends them back, and
/// fills a form's CSRF field from its cookie as the page's hidden field would.
final class WebBrowser: Sendable {
    let client: any TestClientProtocol
    let language: String?
    private let jar = Mutex<[String: String]>([:])

    init(_ client: any TestClientProtocol, language: String? = nil) {
        self.client = client
        self.language = language
    }

    func cookie(_ name: String) -> String? { jar.withLock { $0[name] } }

    func get(_ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(.get, path, body: nil, headers: headers)
    }

    /// Posts `fields` as a form; the CSRF token is added unless `csrf` says otherwise.
    func post(
        _ path: String, _ fields: [String: String] = [:], csrf: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = fields
        fields["csrf"] = csrf ?? cookie("chidian_csrf") ?? ""
        let body = fields.map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }.joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await send(.post, path, body: body, headers: headers)
    }

    /// Posts `fields` and `photos` as `multipart/form-data`, the CSRF token added as a field.
    func postMultipart(_ path: String, _ fields: [String: String], photos: [[UInt8]] = []) async throws
        -> TestResponse
    {
        let boundary = "chidian-test-boundary"
        var body: [UInt8] = []
        func part(_ name: String, _ content: [UInt8], file: Bool) {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            if file { head += "; filename=\"photo.png\"\r\nContent-Type: image/png" }
            body += Array((head + "\r\n\r\n").utf8) + content + Array("\r\n".utf8)
        }
        part("csrf", Array((cookie("chidian_csrf") ?? "").utf8), file: false)
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { part(name, Array(value.utf8), file: false) }
        for photo in photos { part("photos", photo, file: true) }
        body += Array("--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        if let language { headers[.acceptLanguage] = language }
        let cookies = jar.withLock { $0.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !cookies.isEmpty { headers[.cookie] = cookies }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    private func send(_ method: HTTPRequest.Method, _ path: String, body: String?, headers: HTTPFields) async throws
        -> TestResponse
    {
        var headers = headers
        if let language { headers[.acceptLanguage] = language }
        let cookies = jar.withLock { $0.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !cookies.isEmpty { headers[.cookie] = cookies }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for line in response.headers[values: .setCookie] {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            let expired = line.contains("Max-Age=0")
            jar.withLock { $0[name] = expired ? nil : value }
        }
        return response
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
