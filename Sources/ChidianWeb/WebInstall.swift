import ChidianCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// What makes the web client installable and readable offline: the web app manifest, the service worker (served
/// from the root, so its scope is every page; `Assets/sw.js` says what it keeps) and the page it shows offline.
struct WebInstall {
    let pages: WebPages
    /// What the service worker keeps for each build: the offline page and the assets every page links.
    let shell: [String]
    let worker: [UInt8]
    let manifest: [UInt8]

    init(pages: WebPages) {
        self.pages = pages
        let assets = ["app.css", "app.js", "favicon.svg", "icon-192.png", "icon-512.png"]
        shell = ["/offline"] + assets.map(pages.assetURL)
        // A new build (assets or offline page) changes the worker's bytes, which is what makes browsers update it.
        let offline = [Language.zh, .en].flatMap { Self.offlineBody(pages, $0) }
        let version = SHA256.hash(data: Array(shell.joined(separator: " ").utf8) + offline)
            .prefix(8).map { String(format: "%02x", $0) }.joined()
        let source = String(decoding: pages.assets["sw.js"]?.bytes ?? [], as: UTF8.self)
        let list = "[" + shell.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        worker = Array(
            source.replacingOccurrences(of: "\"__SHELL__\"", with: list)
                .replacingOccurrences(of: "\"__VERSION__\"", with: "\"\(version)\"").utf8)
        manifest = Self.manifest(pages)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("manifest.webmanifest", use: serveManifest)
        router.get("sw.js", use: serviceWorker)
        router.get("offline", use: offline)
    }

    @Sendable func serveManifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        // Its icon URLs carry their hashes, so it is checked again rather than kept.
        Response(
            status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: manifest)))
    }

    @Sendable func serviceWorker(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: worker)))
    }

    /// The page the service worker shows for a page it has not kept: as a visitor sees it (no name, no CSRF
    /// token), since it is kept for whoever uses the browser next.
    @Sendable func offline(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = Language(acceptLanguage: request.headers[.acceptLanguage])
        var context = context
        context.viewer = .nobody
        context.web = WebState(language: language, csrfToken: "", secure: false)
        return pages.page(body: Self.offlineBody(pages, language), title: language.text("offline"), context: context)
    }

    static func offlineBody(_ pages: WebPages, _ language: Language) -> [UInt8] {
        pages.render("offline", model: [:], language: language, csrf: "", viewer: nil)
    }

    struct Manifest: Encodable {
        struct Icon: Encodable {
            let src: String
            let sizes: String
            let type = "image/png"
            let purpose: String
        }
        let name = "吃点啥"
        let shortName = "吃点啥"
        let description = "今天吃点啥：附近的餐厅、评价和优惠"
        let lang = "zh-CN"
        let id = "/"
        let startUrl = "/"
        let scope = "/"
        let display = "standalone"
        let themeColor = "#c2410c"
        let backgroundColor = "#fafaf9"
        let icons: [Icon]
    }

    static func manifest(_ pages: WebPages) -> [UInt8] {
        let icons = [
            Manifest.Icon(src: pages.assetURL("icon-192.png"), sizes: "192x192", purpose: "any"),
            Manifest.Icon(src: pages.assetURL("icon-512.png"), sizes: "512x512", purpose: "any"),
            Manifest.Icon(src: pages.assetURL("icon-maskable-512.png"), sizes: "512x512", purpose: "maskable"),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard let json = try? encoder.encode(Manifest(icons: icons)) else {
            preconditionFailure("the web app manifest does not encode")
        }
        return Array(json)
    }
}
