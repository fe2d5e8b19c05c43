import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The installable web app: the manifest, the service worker and its offline page, and what keeps one person's
/// pages from the next person on the same browser (Clear-Site-Data, no-store on personal pages).
@Suite struct WebInstallTests {
    @Test func theManifestNamesTheAppItsIconsAndTheme() async throws {
        try await TestApp.run { client, _ in
            let browser = WebBrowser(client)
            // MUT
            let response = try await browser.get("/manifest.webmanifest")
            // validate
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/manifest+json")
            let manifest = try #require(
                try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
            #expect(manifest["name"] as? String == "吃点啥")
            #expect(manifest["short_name"] as? String == "吃点啥")
            #expect(manifest["start_url"] as? String == "/")
            #expect(manifest["display"] as? String == "standalone")
            #expect(manifest["theme_color"] as? String == "#c2410c")
            #expect(manifest["background_color"] as? String != nil)
            let icons = try #require(manifest["icons"] as? [[String: String]])
            #expect(Set(icons.compactMap { $0["sizes"] }) == ["192x192", "512x512"])
            #expect(icons.contains { $0["purpose"] == "maskable" })
            for icon in icons {
                let png = try await browser.get(try #require(icon["src"]))
                #expect(png.status == .ok && png.headers[.contentType] == "image/png")
                #expect(
                    Array(png.body.readableBytesView.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            }
            let home = try await browser.get("/").text
            #expect(home.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
            #expect(home.contains("<meta name=\"theme-color\" content=\"#c2410c\">"))
        }
    }

    @Test func theServiceWorkerIsServedFromTheRootAndKeepsTheShell() async throws {
        try await TestApp.run { client, _ in
            let browser = WebBrowser(client)
            // MUT
            let worker = try await browser.get("/sw.js")
            let offline = try await WebBrowser(client, language: "en").get("/offline")
            // validate
            #expect(worker.status == .ok)
            #expect(worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(worker.headers[.cacheControl] == "no-cache")
            let css = WebPages.shared.assetURL("app.css")
            #expect(worker.text.contains("const SHELL = [\"/offline\", \"\(css)\""))
            #expect(!worker.text.contains("__SHELL__") && !worker.text.contains("__VERSION__"))
            #expect(offline.status == .ok)
            #expect(offline.text.contains("<h1 id=\"offline\">You are offline</h1>"))
            #expect(offline.text.contains("data-retry"))
            // kept for whoever comes next: no cookie, no name, no CSRF token
            #expect(offline.headers[values: .setCookie].isEmpty)
            #expect(!offline.text.contains("name=\"csrf\""))
            let csp = try #require(try await browser.get("/").headers[.contentSecurityPolicy])
            #expect(csp.contains("worker-src 'self'") && csp.contains("script-src 'self';") && !csp.contains("unsafe"))
        }
    }

    @Test func signingInOrOutClearsTheBrowsersStorageAndPersonalPagesAreNotKept() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("食客")
            let browser = WebBrowser(client)
            _ = try await browser.get("/login")
            // MUT
            let signedIn = try await browser.post("/login", ["name": "食客", "password": "correct horse"])
            let personal = try await browser.get("/me")
            let store = try await browser.get("/")
            let out = try await browser.post("/logout")
            // validate
            #expect(signedIn.headers[.clearSiteData] == "\"storage\"")
            #expect(out.headers[.clearSiteData] == "\"storage\"")
            #expect(personal.status == .ok && personal.headers[.cacheControl] == "private, no-store")
            #expect(store.headers[.cacheControl] == "private, no-cache")
            for path in ["/me", "/me/coupons", "/me/notifications", "/manage", "/admin", "/me/export"] {
                #expect(WebSessionMiddleware.isPersonal(path), "\(path)")
            }
            #expect(!WebSessionMiddleware.isPersonal("/media") && !WebSessionMiddleware.isPersonal("/stores/1"))
        }
    }
}
