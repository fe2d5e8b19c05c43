import ChidianCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The web client's templates and assets, embedded in the binary, and the one way a page becomes a response.
package struct WebPages: Sendable {
    let library: TemplateLibrary
    /// Assets by name: bytes, content type and a content hash (their URLs carry it, so they cache forever).
    let assets: [String: Asset]

    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let hash: String
    }

    /// The pages' Content-Security-Policy: no inline script or style, nothing from another origin (`blob:` images
    /// are the previews of the viewer's own photos before upload).
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; object-src 'none'; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; worker-src 'self'; manifest-src 'self'"

    package static let shared: WebPages = {
        do { return try WebPages(files: embeddedWebFiles) } catch {
            preconditionFailure("the embedded web templates do not parse: \(error)")
        }
    }()

    init(files: [(name: String, base64: String)]) throws {
        var library = TemplateLibrary()
        var assets: [String: Asset] = [:]
        for file in files {
            let bytes = [UInt8](Data(base64Encoded: file.base64) ?? Data())
            if file.name.hasSuffix(".mustache") {
                try library.register(String(decoding: bytes, as: UTF8.self), named: String(file.name.dropLast(9)))
            } else {
                let type = Self.contentType(file.name)
                let hash = SHA256.hash(data: bytes).prefix(8).map { String(format: "%02x", $0) }.joined()
                assets[file.name] = Asset(bytes: bytes, contentType: type, hash: hash)
            }
        }
        self.library = library
        self.assets = assets
    }

    /// An asset's content type by its name's suffix.
    static func contentType(_ name: String) -> String {
        let types = ["css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "png": "image/png"]
        return types[String(name.split(separator: ".").last ?? "")] ?? "image/svg+xml"
    }

    func assetURL(_ name: String) -> String { "/assets/\(name)?v=\(assets[name]?.hash ?? "0")" }

    /// `template` rendered inside the layout, with the viewer, the language's words and the CSRF token.
    func render(
        _ template: String, title: String, model: TemplateFields, context: AppRequestContext,
        status: HTTPResponse.Status = .ok, query: String = ""
    ) -> Response {
        let language = context.web?.language ?? .zh
        let body = render(
            template, model: model, language: language, csrf: context.web?.csrfToken ?? "",
            viewer: context.viewer.user)
        return page(body: body, title: title, context: context, status: status, query: query)
    }

    /// `template` alone, with the language's words, the CSRF token and the viewer (none: as any visitor sees it).
    func render(_ template: String, model: TemplateFields, language: Language, csrf: String, viewer: AuthUser?)
        -> [UInt8]
    {
        var root = model
        root["t"] = language.templateStrings
        root["csrf"] = csrf
        root["viewer"] = viewer.map { ViewerModel($0) }
        return library.render(template, .object(root))
    }

    /// A rendered `body` inside the layout, which shows the viewer and carries their CSRF token.
    func page(
        body: [UInt8], title: String, context: AppRequestContext, status: HTTPResponse.Status = .ok, query: String = ""
    ) -> Response {
        let html = layout(body: body, title: title, context: context, query: query)
        return Self.response(html, status: status, language: context.web?.language ?? .zh)
    }

    /// A page of parts inside the layout. To a client that takes gzip (`Accept-Encoding`), kept pieces go as they
    /// are kept and the rest as stored blocks around them (`GzipMember`): nothing is inflated or compressed.
    func page(parts: [PagePart], title: String, request: Request, context: AppRequestContext) throws -> Response {
        let language = context.web?.language ?? .zh
        let html = layout(body: Self.bodyMark, title: title, context: context, query: "")
        guard let mark = Self.lastRange(of: Self.bodyMark, in: html) else {
            preconditionFailure("the layout does not show its body")
        }
        let whole =
            [PagePart.plain(Array(html[..<mark.lowerBound]))] + parts + [.plain(Array(html[mark.upperBound...]))]
        var response: Response
        if PagePart.anyDeflated(whole), GzipMember.accepted(request.headers[.acceptEncoding]) {
            response = Self.response(GzipMember.write(whole), status: .ok, language: language)
            response.headers[.contentEncoding] = "gzip"
        } else {
            response = Self.response(try PagePart.joined(whole), status: .ok, language: language)
        }
        response.headers[.vary] = "Cookie, Accept-Language, Accept-Encoding"
        return response
    }

    private func layout(body: [UInt8], title: String, context: AppRequestContext, query: String) -> [UInt8] {
        let language = context.web?.language ?? .zh
        let layout: TemplateFields = [
            "t": language.templateStrings, "lang": language.rawValue, "title": title, "body": TemplateValue.bytes(body),
            "query": query, "csrf": context.web?.csrfToken ?? "", "css": assetURL("app.css"), "js": assetURL("app.js"),
            "icon": assetURL("favicon.svg"), "touchIcon": assetURL("icon-192.png"),
            "viewer": context.viewer.user.map { ViewerModel($0) },
        ]
        return library.render("layout", .object(layout))
    }

    /// Where a page of parts goes in the layout, found as its last occurrence: what a viewer can put in a page
    /// (a title, a name, a query) comes before the body, and only the layout's closing tags after it.
    private static let bodyMark: [UInt8] = Array("\u{0}chidian-body\u{0}".utf8)

    private static func lastRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.count - needle.count
        while index >= 0 {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index..<index + needle.count }
            index -= 1
        }
        return nil
    }

    static func response(_ html: [UInt8], status: HTTPResponse.Status, language: Language) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.contentLanguage] = language.rawValue
        // Pages show the viewer's session, likes and feed: no shared cache may keep them.
        headers[.cacheControl] = "private, no-cache"
        headers[.vary] = "Cookie, Accept-Language"
        headers[.referrerPolicy] = "same-origin"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: html)))
    }

    /// A refusal by the rules (a domain error, or a 4xx problem other than 429) to show beside the form that caused
    /// it; nil for anything else, which `WebErrorMiddleware` answers as a page of its own.
    static func refusal(_ error: any Error) -> Problem? {
        switch error {
        case let error as any DomainError: Problem(error)
        case let problem as Problem where problem.status.code < 500 && problem.status != .tooManyRequests: problem
        default: nil
        }
    }

    /// A redirect after a form post (303, so a reload does not post again).
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
