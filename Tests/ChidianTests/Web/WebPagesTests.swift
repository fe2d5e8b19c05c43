import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The server-rendered web client: every page's content in its HTML, escaped, in the viewer's language, under a
/// Content-Security-Policy without inline scripts.
@Suite struct WebPagesTests {
    @Test func everyPageShowsItsDataWithUserTextEscaped() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let attack = "<script>alert(1)</script>"
            let review = try await world.review(4, "毛肚很新鲜 \(attack)")["id"] as! String
            let browser = WebBrowser(client)
            let pages = [
                "/", "/stores/\(world.storeID)", "/comments/\(review)", "/users/\(world.user.id)",
                "/search?q=%E6%AF%9B%E8%82%9A",
            ]
            for path in pages {
                // MUT
                let page = try await browser.get(path)
                // validate
                #expect(page.status == .ok, "\(path)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                let csp = page.headers[.contentSecurityPolicy] ?? ""
                #expect(csp.contains("script-src 'self'") && csp.contains("img-src 'self'") && !csp.contains("unsafe"))
                #expect(page.text.contains("<html lang=\"zh-CN\">"), "\(path)")
                #expect(!page.text.contains(attack), "\(path) carries the script unescaped")
                #expect(!page.text.contains("<script>"), "\(path) has an inline script")
                #expect(page.text.contains("小龙坎"), "\(path) does not name the store")
            }
            let store = try await browser.get("/stores/\(world.storeID)").text
            #expect(store.contains("毛肚很新鲜 &lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(store.contains("4.0 星（满分 5 星）"))
            let search = try await browser.get("/search?q=%E6%AF%9B%E8%82%9A").text
            #expect(search.contains("评价中的菜名: 毛肚 · 1 条评价提到"))
            #expect(search.contains("<h2>评价中提到</h2>"))
            let byCategory = try await browser.get("/search?q=%E7%81%AB%E9%94%85").text
            #expect(byCategory.contains("<h2>类型匹配</h2>") && !byCategory.contains("<h2>餐厅名匹配</h2>"))
            #expect(search.contains("value=\"毛肚\""))
        }
    }

    @Test func englishWhenTheBrowserPrefersIt() async throws {
        try await TestApp.run { client, _ in
            let cases: [(String, String)] = [
                ("en-US,en;q=0.9", "en"), ("zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"), ("fr-FR, en;q=0.5", "en"),
                ("zh;q=0.4, en;q=0.6", "en"), ("fr, de", "zh-CN"), ("", "zh-CN"),
            ]
            for (header, lang) in cases {
                // MUT
                let page = try await WebBrowser(client, language: header).get("/login")
                // validate
                #expect(page.text.contains("<html lang=\"\(lang)\">"), "\(header)")
                #expect(page.headers[.contentLanguage] == lang)
                #expect(page.text.contains(lang == "en" ? "Sign in" : "登录"))
            }
        }
    }

    @Test func assetsAreServedByContentHashAndUnknownPagesAre404() async throws {
        try await TestApp.run { client, _ in
            let home = try await WebBrowser(client).get("/").text
            let css = try #require(home.firstMatch(of: /href="(\/assets\/app\.css\?v=[0-9a-f]{16})"/)?.1)
            // MUT
            let sheet = try await client.execute(uri: String(css), method: .get, headers: [:], body: nil)
            // validate
            #expect(sheet.status == .ok)
            #expect(sheet.headers[.contentType] == "text/css; charset=utf-8")
            #expect(sheet.headers[.cacheControl]?.contains("immutable") == true)
            let etag = try #require(sheet.headers[.eTag])
            let again = try await client.execute(
                uri: String(css), method: .get, headers: [.ifNoneMatch: etag], body: nil)
            #expect(again.status == .notModified)
            #expect(
                try await client.execute(uri: "/assets/nope.js", method: .get, headers: [:], body: nil).status
                    == .notFound)
            let missing = try await WebBrowser(client).get("/stores/s_nothing")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("餐厅不存在"))
            #expect(missing.headers[.contentType] == "text/html; charset=utf-8")
        }
    }
}
