import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Browsers sign in with an HttpOnly SameSite=Lax cookie holding an API session token; every state-changing form
/// needs the CSRF token; sign-out revokes the token.
@Suite struct WebSessionTests {
    @Test func signInSetsACookieTheAPIAcceptsAndSignOutRevokesIt() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("食客")
            let browser = WebBrowser(client)
            _ = try await browser.get("/login")
            // MUT
            let signedIn = try await browser.post(
                "/login", ["name": "食客", "password": "correct horse", "next": "/users/x?a=1"])
            // validate
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers[.location] == "/users/x?a=1")
            let cookie = try #require(
                signedIn.headers[values: .setCookie].first { $0.hasPrefix("chidian_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            let token = try #require(browser.cookie("chidian_session"))
            #expect(try await client.send(.get, "/v1/me", token: token).json()["name"] as? String == "食客")
            #expect(try await browser.get("/").text.contains(">食客</a>"))
            // sign out
            let out = try await browser.post("/logout")
            #expect(out.status == .seeOther)
            #expect(browser.cookie("chidian_session") == nil)
            #expect(try await client.send(.get, "/v1/me", token: token).problemCode == "invalid_token")
        }
    }

    @Test func cookiesAreSecureBehindTLS() async throws {
        try await TestApp.run { client, _ in
            // MUT
            let page = try await WebBrowser(client).get("/", headers: [.init("X-Forwarded-Proto")!: "https"])
            // validate
            let cookies = page.headers[values: .setCookie]
            #expect(cookies.count == 2)
            #expect(cookies.allSatisfy { $0.contains("Secure") && $0.contains("HttpOnly") })
        }
    }

    @Test func formsWithoutTheTokenOrFromAnotherOriginAreRefused() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(5)["id"] as! String
            _ = try await client.register("路人")
            let browser = WebBrowser(client)
            _ = try await browser.get("/")
            let attempts: [(String, [String: String], String?, HTTPFields)] = [
                ("/login", ["name": "路人", "password": "correct horse"], "", [:]),
                (
                    "/login", ["name": "路人", "password": "correct horse"],
                    "forged-token-forged-token-forged-token-1234", [:]
                ),
                (
                    "/login", ["name": "路人", "password": "correct horse"], nil,
                    [.init("Origin")!: "http://evil.example"]
                ),
                ("/register", ["name": "新人", "password": "correct horse"], "", [:]),
                ("/comments/\(review)/like", [:], "", [:]),
                ("/stores/\(world.storeID)/favorite", [:], "", [:]),
                ("/logout", [:], "", [:]),
            ]
            for (path, fields, csrf, headers) in attempts {
                // MUT
                let response = try await browser.post(path, fields, csrf: csrf, headers: headers)
                // validate
                #expect(response.status == .forbidden, "\(path)")
                #expect(response.text.contains("表单已过期"), "\(path)")
            }
            #expect(browser.cookie("chidian_session") == nil)
            let users = try await app.database.query("SELECT count(*) FROM users WHERE name = '新人'")
            #expect(try users[0].decode(Int.self) == 0)
        }
    }

    @Test func theOriginalAppsMessagesForWrongSignInsAndRegistrations() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("已注册")
            let browser = WebBrowser(client)
            _ = try await browser.get("/login")
            let cases: [(String, [String: String], HTTPResponse.Status, String)] = [
                ("/login", ["name": "没这个人", "password": "correct horse"], .notFound, "用户名不存在"),
                ("/login", ["name": "已注册", "password": "wrong horse"], .unauthorized, "密码错误"),
                ("/register", ["name": "已注册", "password": "correct horse"], .conflict, "用户名重复"),
                ("/register", ["name": "  ", "password": "correct horse"], .badRequest, "用户名不能为空"),
                ("/register", ["name": "新人", "password": "short"], .badRequest, "密码至少 8 个字符"),
                (
                    "/register", ["name": "新人", "password": "correct horse", "role": "admin"], .badRequest,
                    "账号类型只能是用户或商家"
                ),
            ]
            for (path, fields, status, message) in cases {
                // MUT
                let response = try await browser.post(path, fields)
                // validate
                #expect(response.status == status, "\(fields)")
                #expect(response.text.contains(message), "\(fields)")
                #expect(!response.text.contains(fields["password"]!), "the password was echoed")
            }
            #expect(browser.cookie("chidian_session") == nil)
            // a manager registers through the form too
            let manager = try await browser.post(
                "/register", ["name": "新老板", "password": "correct horse", "role": "manager"])
            #expect(manager.status == .seeOther)
            let token = try #require(browser.cookie("chidian_session"))
            #expect(try await client.send(.get, "/v1/me", token: token).json()["role"] as? String == "manager")
        }
    }

    @Test func aNextOutsideTheSiteIsIgnored() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("食客")
            for next in ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"] {
                let browser = WebBrowser(client)
                _ = try await browser.get("/login")
                // MUT
                let response = try await browser.post(
                    "/login", ["name": "食客", "password": "correct horse", "next": next])
                // validate
                #expect(response.headers[.location] == "/", "\(next)")
            }
        }
    }
}
