import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Per-client rate limits: token buckets in PostgreSQL, 429 `rate_limited` with `Retry-After`, per signed-in user
/// else per address, shared by every server process, off with `RATE_LIMITS=off` (never the sign-in throttle).
@Suite struct RateLimitTests {
    /// Limits on, every kind at `burst` requests and then one an hour: no token comes back while a test runs (the
    /// watchdog stops any run long before), however slow the machine. One a minute once refilled a bucket between
    /// two requests of a test that a loaded machine stretched to four minutes.
    static func tight(_ burst: Int) -> @Sendable (inout AppConfiguration) -> Void {
        { config in
            config.rateLimits.enabled = true
            for kind in RateLimits.Kind.allCases {
                config.rateLimits.limits[kind] = .init(perSecond: 1.0 / 3600, burst: burst)
            }
        }
    }

    static func expectLimited(_ response: TestResponse, _ comment: Comment? = nil) {
        #expect(response.status == .tooManyRequests, comment)
        #expect(response.problemCode == "rate_limited", comment)
        #expect((response.headers[.retryAfter].flatMap { Int($0) } ?? 0) >= 1, comment)
    }

    @Test func routesMapToTheirLimits() {
        let cases: [(HTTPRequest.Method, String, RateLimits.Kind?)] = [
            (.get, "/v1/search", .search), (.post, "/v1/auth/register", .register), (.post, "/v1/auth/login", .login),
            (.put, "/v1/me/password", .password), (.post, "/v1/images", .upload),
            (.post, "/v1/stores/s001/comments", .post), (.put, "/v1/comments/c001/reply", .post),
            (.put, "/v1/comments/c001/like", .like), (.delete, "/v1/comments/c001/like", .like),
            (.post, "/v1/comments/c001/reports", .report),
            (.get, "/v1/me/export", .export), (.delete, "/v1/me", .password), (.get, "/v1/me", nil),
            (.get, "/v1/stores/s001/comments", nil), (.get, "/v1/stores", nil), (.post, "/v1/auth/logout", nil),
            (.post, "/v1/stores/s001/comments/x", nil),
            // the web client's forms draw on the same buckets
            (.get, "/search", .search), (.post, "/register", .register), (.post, "/login", .login),
            (.post, "/comments/c001/like", .like), (.post, "/comments/c001/unlike", .like),
            (.post, "/stores/s001/comments", .post), (.post, "/comments/c001/reply", .post),
            (.post, "/comments/c001/report", .report),
            (.post, "/me/password", .password), (.post, "/me/avatar", .upload),
            (.get, "/me/export", .export), (.post, "/me/delete", .password),
            (.get, "/stores/s001", nil), (.post, "/logout", nil), (.post, "/stores/s001/favorite", nil),
        ]
        for (method, path, kind) in cases {
            #expect(RateLimits.kind(method, path[...]) == kind, "\(method) \(path)")
        }
    }

    @Test func searchAnswers429WithRetryAfterPastItsBurst() async throws {
        try await TestApp.run(configure: Self.tight(3)) { client, _ in
            // MUT
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<3 { statuses.append(try await client.send(.get, "/v1/search?q=火锅").status) }
            let started = ContinuousClock.now  // timing: a lower bound below; a slow machine only lengthens it
            let over = try await client.send(.get, "/v1/search?q=火锅")
            // validate
            #expect(statuses == [.ok, .ok, .ok])
            Self.expectLimited(over)
            // a refusal comes after a pause, so a client retrying at once cannot flood the server with them
            #expect(ContinuousClock.now - started >= .milliseconds(250))  // timing: a lower bound, as above
            // one an hour: the next token is an hour away at most
            #expect((over.headers[.retryAfter].flatMap { Int($0) } ?? 0) <= 3600)
        }
    }

    @Test func everyLimitedRouteOfTodayAnswers429() async throws {
        try await TestApp.run(configure: Self.tight(1)) { client, app in
            // setup (registration is limited too: one per client, so the rest sign in)
            let manager = try await client.register("限流店长", role: "manager")
            let category = try await StoreFixture.category(app, "川菜")
            let store =
                try await StoreFixture.store(client, manager, name: "限流小馆", categoryID: category).id
            let png = TestImages.png(width: 4, height: 4)
            // MUT / validate: each route's second request within the hour
            Self.expectLimited(
                try await client.send(.post, "/v1/auth/register", body: ["name": "第二个", "password": "long enough"]),
                "register")
            for _ in 0..<2 { _ = try await client.send(.get, "/v1/search?q=鱼") }
            Self.expectLimited(try await client.send(.get, "/v1/search?q=鱼"), "search")
            let body: [String: Any] = ["rating": 4, "body": "好吃"]
            _ = try await client.send(.post, "/v1/stores/\(store)/comments", body: body, token: manager.token)
            Self.expectLimited(
                try await client.send(.post, "/v1/stores/\(store)/comments", body: body, token: manager.token), "post")
            #expect(try await client.upload(png, token: manager.token).status == .created)
            Self.expectLimited(try await client.upload(png, token: manager.token), "upload")
            let change: [String: Any] = ["currentPassword": "wrong", "newPassword": "new password"]
            _ = try await client.send(.put, "/v1/me/password", body: change, token: manager.token)
            Self.expectLimited(
                try await client.send(.put, "/v1/me/password", body: change, token: manager.token), "password")
            let login: [String: Any] = ["name": "限流店长", "password": "correct horse"]
            #expect(try await client.send(.post, "/v1/auth/login", body: login).status == .ok)
            Self.expectLimited(try await client.send(.post, "/v1/auth/login", body: login), "login")
        }
    }

    @Test func aSignedInUserIsLimitedAsThemselfAndOthersAreNot() async throws {
        try await TestApp.run(configure: Self.tight(2)) { client, _ in
            // setup: two users from the same (test) address
            let first = try await client.register("甲")
            let second = try await client.register("乙")
            // MUT
            for _ in 0..<2 { _ = try await client.send(.get, "/v1/search?q=面", token: first.token) }
            let firstOver = try await client.send(.get, "/v1/search?q=面", token: first.token)
            let secondFine = try await client.send(.get, "/v1/search?q=面", token: second.token)
            let anonymousFine = try await client.send(.get, "/v1/search?q=面")
            // validate
            Self.expectLimited(firstOver)
            #expect(secondFine.status == .ok)
            #expect(anonymousFine.status == .ok)
        }
    }

    @Test func offLetsEverythingThroughButTheSignInThrottleStays() async throws {
        try await TestApp.run(configure: { config in
            Self.tight(1)(&config)
            config.rateLimits.enabled = false
        }) { client, _ in
            // setup
            _ = try await client.register("不限")
            // MUT
            var searches: [HTTPResponse.Status] = []
            for _ in 0..<10 { searches.append(try await client.send(.get, "/v1/search?q=鱼").status) }
            var logins: [String?] = []
            for _ in 0..<7 {
                logins.append(
                    try await client.send(.post, "/v1/auth/login", body: ["name": "不限", "password": "wrong password"])
                        .problemCode)
            }
            // validate
            #expect(searches.allSatisfy { $0 == .ok })
            #expect(logins.prefix(5).allSatisfy { $0 == "wrong_password" })
            #expect(logins.suffix(2).allSatisfy { $0 == "too_many_attempts" })
        }
    }

    @Test func uploadsPerDayAreCappedPerUser() async throws {
        try await TestApp.run(configure: { $0.rateLimits.uploadsPerDay = 2 }) { client, _ in
            // setup
            let user = try await client.register("传图")
            let other = try await client.register("另一个")
            let png = TestImages.png(width: 4, height: 4)
            // MUT
            let first = try await client.upload(png, token: user.token)
            let second = try await client.upload(png, token: user.token)
            let invalid = try await client.upload([0, 1, 2], token: user.token)
            let third = try await client.upload(png, token: user.token)
            let othersFirst = try await client.upload(png, token: other.token)
            // validate: an invalid upload does not count; the quota waits out the day
            #expect(first.status == .created && second.status == .created)
            #expect(invalid.status == .unsupportedMediaType)
            Self.expectLimited(third)
            #expect((third.headers[.retryAfter].flatMap { Int($0) } ?? 0) > 3600)
            #expect(othersFirst.status == .created)
        }
    }

    @Test func trustedProxiesParseAndNameTheClient() throws {
        let proxies = try #require(TrustedProxies("127.0.0.1, 10.0.0.0/8 ,fd00::/8"))
        #expect(proxies.contains("127.0.0.1") && proxies.contains("10.1.2.3") && proxies.contains("fd12::1"))
        #expect(proxies.contains("::ffff:10.9.9.9"))
        #expect(!proxies.contains("127.0.0.2") && !proxies.contains("11.0.0.1") && !proxies.contains("fe80::1"))
        #expect(TrustedProxies("10.0.0.0/33") == nil && TrustedProxies("nonsense") == nil)
        // A trusted peer: the right-most untrusted forwarded address; an untrusted peer: itself.
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 203.0.113.9, 10.0.0.2"]) == "203.0.113.9")
        #expect(proxies.client(peer: "198.51.100.1", forwardedFor: ["203.0.113.9"]) == "198.51.100.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: ["not an address"]) == "127.0.0.1")
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"]) == "127.0.0.1")
    }

    @Test func twoServerProcessesShareOneAllowanceAndForwardedForCountsOnlyFromTrustedProxies() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let limits = ["RATE_LIMITS": "on", "RATE_LIMIT_SEARCH": "1:4"]
        let a = try await ServerProcess(
            databaseURL: url, environment: limits.merging(["TRUSTED_PROXIES": "127.0.0.1"]) { $1 })
        defer { a.stop() }
        let b = try await ServerProcess(databaseURL: url, environment: limits)
        defer { b.stop() }
        func search(_ server: ServerProcess, forwardedFor: String? = nil, from source: String = "127.0.0.1") throws
            -> Int
        {
            try server.request(
                "GET", "/v1/search?q=%E9%B1%BC", bytes: nil, contentType: nil,
                headers: forwardedFor.map { ["X-Forwarded-For": $0] } ?? [:], from: source
            ).status
        }
        // MUT: 127.0.0.5 searches twice on each server, then once more; A trusts loopback's forwarded addresses
        let shared = [
            try search(a, from: "127.0.0.5"), try search(b, from: "127.0.0.5"), try search(a, from: "127.0.0.5"),
            try search(b, from: "127.0.0.5"),
        ]
        let fifth = try search(a, from: "127.0.0.5")
        let forwarded = try (0..<5).map { _ in try search(a, forwardedFor: "203.0.113.7") }
        let spoofed = try search(b, forwardedFor: "203.0.113.8", from: "127.0.0.5")
        // validate
        #expect(shared == [200, 200, 200, 200])
        #expect(fifth == 429)
        #expect(forwarded == [200, 200, 200, 200, 429])
        #expect(spoofed == 429, "B trusts no proxy: the header must not buy 127.0.0.5 a new allowance")
    }
}
