import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Issue 18: lengths counted one way, passwords used exactly as typed, an atomic shared sign-in throttle,
/// and sessions with an absolute lifetime.
@Suite struct AccountHardeningTests {
    /// 32 characters as people see them, each an `a` with `marks` combining accents.
    static func accented(_ count: Int, marks: Int) -> String {
        String(repeating: "a" + String(repeating: "\u{301}", count: marks), count: count)
    }

    @Test func lengthsCountCharactersAndCodePointsTheWayTheDatabaseDoes() async throws {
        try await TestApp.run { client, app in
            // MUT: 32 characters of 9 code points each: 288 code points, past the database's 256
            let heavy = try await client.send(
                .post, "/v1/auth/register", body: ["name": Self.accented(32, marks: 8), "password": "password1"])
            // 32 characters of 8 code points each: exactly the database's bound
            let edge = try await client.send(
                .post, "/v1/auth/register", body: ["name": Self.accented(32, marks: 7), "password": "password1"])
            // validate
            #expect(heavy.status == .badRequest)
            #expect(heavy.problemCode == "invalid_name")
            #expect(edge.status == .created)
            #expect(try await app.database.query("SELECT count(*)::int FROM users")[0].decode(Int.self) == 1)

            let manager = try await client.register("Boss", role: "manager")
            let categoryID = try await StoreFixture.category(app, "面")
            let storeID =
                try await StoreFixture.store(client, manager, name: "Noodles", categoryID: categoryID).id
            let cases: [(String, HTTPRequest.Method, String, [String: Any], String)] = [
                ("store name", .patch, "/v1/stores/\(storeID)", ["name": Self.accented(64, marks: 8)], "invalid_name"),
                (
                    "description", .patch, "/v1/stores/\(storeID)", ["description": Self.accented(2000, marks: 8)],
                    "invalid_description"
                ),
                (
                    "address", .patch, "/v1/stores/\(storeID)", ["address": Self.accented(200, marks: 8)],
                    "invalid_address"
                ),
                (
                    "body", .post, "/v1/stores/\(storeID)/comments",
                    ["rating": 5, "body": Self.accented(5000, marks: 8)], "body_too_long"
                ),
            ]
            for (field, method, path, body, code) in cases {
                let response = try await client.send(method, path, body: body, token: manager.token)
                #expect(response.status == .badRequest, "\(field)")
                #expect(response.problemCode == code, "\(field): \(response.text)")
            }
            // The same lengths at 8 code points per character are stored.
            let fits = try await client.send(
                .patch, "/v1/stores/\(storeID)",
                body: ["description": Self.accented(2000, marks: 7), "address": Self.accented(200, marks: 7)],
                token: manager.token)
            #expect(fits.status == .ok, "\(fits.text)")
        }
    }

    @Test func theDatabaseRefusesWhatTheRuleRefusesAndTheErrorMapsToTheField() async throws {
        try await TestApp.run { _, app in
            let hash = try await Passwords(cost: 4).hash("password1")
            // MUT: bypass the Swift rule and let the CHECK constraint answer
            var caught: PSQLError?
            do {
                _ = try await app.database.query(
                    "INSERT INTO users (name, password_hash, role) VALUES (\(Self.accented(32, marks: 8)), \(hash), 'user')"
                )
            } catch let error as PSQLError { caught = error }
            // validate
            let error = try #require(caught)
            #expect(error.serverCode == .checkViolation)
            #expect(DatabaseErrors.problem(for: error)?.code == "invalid_name")
            let metadata = DatabaseErrors.metadata(error)
            #expect(metadata["psql.constraint"] == "users_name_length")
            #expect(metadata["psql.table"] == "users")
            #expect(metadata["psql.sqlstate"] == "23514")
            #expect(!"\(metadata)".contains("$2"))
            // and the full reflection, which the middleware must never log, does carry the row
            #expect(String(reflecting: error).contains(hash))
        }
    }

    @Test func passwordsAreUsedExactlyAsTyped() async throws {
        try await TestApp.run { client, _ in
            // MUT
            let nul = try await client.send(
                .post, "/v1/auth/register", body: ["name": "Nul", "password": String(repeating: "\u{0}", count: 8)])
            let long = try await client.send(
                // 25 characters, 75 bytes of UTF-8
                .post, "/v1/auth/register", body: ["name": "Long", "password": String(repeating: "密", count: 25)])
            let edge = try await client.send(
                .post, "/v1/auth/register", body: ["name": "Edge", "password": String(repeating: "x", count: 72)])
            // validate
            #expect(nul.status == .badRequest)
            #expect(nul.problemCode == "invalid_password")
            #expect(long.status == .badRequest)
            #expect(long.problemCode == "password_too_long")
            #expect(edge.status == .created)
            // what bcrypt would have ignored is not a way in
            let prefix = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Edge", "password": String(repeating: "x", count: 72) + "y"])
            #expect(prefix.problemCode == "password_too_long")
            let cut = try await client.send(
                .post, "/v1/auth/login",
                body: ["name": "Edge", "password": String(repeating: "x", count: 72) + "\u{0}"])
            #expect(cut.problemCode == "invalid_password")
            let right = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Edge", "password": String(repeating: "x", count: 72)])
            #expect(right.status == .ok)
            // the same rule for a new password
            let session = try await client.register("Changer", password: "old password")
            let change = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "old password", "newPassword": "new\u{0}password"],
                token: session.token)
            #expect(change.problemCode == "invalid_password")
        }
    }

    @Test func seedPlainTextPasswordsFollowTheSameRule() async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            fixture.users[0]["keyword"] = "abc\u{0}def"
            fixture.users[1]["keyword"] = String(repeating: "é", count: 37)  // 74 bytes
            // MUT
            var caught: SeedError?
            do {
                _ = try await SeedImporter(database: app.database, config: app.services.config).run(
                    directory: try fixture.write())
            } catch let error as SeedError { caught = error }
            // validate: both named, neither echoed, nothing written
            let issues = try #require(caught).issues.map(\.description)
            #expect(
                issues.contains("userInfo.json[0].keyword: The password must not contain NUL characters."), "\(issues)")
            #expect(
                issues.contains("userInfo.json[1].keyword: The password must be at most 72 bytes in UTF-8."),
                "\(issues)")
            #expect(!issues.joined().contains("éé"))
            #expect(try await app.database.query("SELECT count(*)::int FROM users")[0].decode(Int.self) == 0)
        }
    }

    @Test func aWeakerHashIsReplacedOnTheNextSignIn() async throws {
        try await TestApp.run(configure: { $0.bcryptCost = 5 }) { client, app in
            let weak = try await Passwords(cost: 4).hash("imported password")
            _ = try await UserRepository(database: app.database).create(
                name: "Imported", passwordHash: weak, role: .user)
            // MUT
            let login = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Imported", "password": "imported password"])
            // validate
            #expect(login.status == .ok)
            let stored = try await app.database.query("SELECT password_hash FROM users WHERE name = 'Imported'")[0]
                .decode(String.self)
            #expect(stored != weak)
            #expect(stored.hasPrefix("$2b$05$") || stored.hasPrefix("$2a$05$") || stored.hasPrefix("$2y$05$"))
            let again = try await client.send(
                .post, "/v1/auth/login", body: ["name": "imported", "password": "imported password"])
            #expect(again.status == .ok)
        }
    }

    @Test func aBurstOfWrongPasswordsGetsAtMostFiveVerifications() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Target", password: "the real one")
            // MUT
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?, String?).self) { group in
                for i in 0..<40 {
                    group.addTask {
                        let response = try await client.send(
                            .post, "/v1/auth/login", body: ["name": "Target", "password": "guess \(i)"])
                        return (response.status, response.problemCode, response.headers[.retryAfter])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // validate: a 401 means bcrypt ran
            let verified = statuses.filter { $0.0 == .unauthorized }
            let refused = statuses.filter { $0.0 == .tooManyRequests }
            #expect(verified.count == 5)
            #expect(refused.count == 35)
            #expect(refused.allSatisfy { $0.1 == "too_many_attempts" && ($0.2.flatMap { Int($0) } ?? 0) > 0 })
        }
    }

    @Test func theOwnerSignsInFromAnotherAddressWhileTheirNameIsUnderAttack() async throws {
        try await TestApp.run { client, app in
            _ = try await client.register("Owner", password: "owner password")
            let throttle = LoginThrottle(buckets: app.services.buckets)
            // MUT: an attacker exhausts (name, address), then keeps trying
            for _ in 0..<5 { _ = try await throttle.attempt("login", subject: "owner", address: "203.0.113.7") }
            await #expect(throws: Problem.self) {
                try await throttle.attempt("login", subject: "owner", address: "203.0.113.7")
            }
            for _ in 0..<50 { _ = try? await throttle.attempt("login", subject: "owner", address: "203.0.113.7") }
            // validate: refused attempts counted nowhere, so the owner elsewhere is not locked out
            let owner = try await throttle.attempt("login", subject: "owner", address: "198.51.100.1")
            try await throttle.succeeded(owner)
            let hits = try await app.database.query("SELECT hits FROM rate_buckets WHERE key = 'login:n:owner'")[0]
                .decode(Int.self)
            #expect(hits == 5)
            // other names from the attacker's address still have room under the address limit
            _ = try await throttle.attempt("login", subject: "someone else", address: "203.0.113.7")
        }
    }

    @Test func countersExpireAndAreNeverWipedWholesale() async throws {
        try await TestApp.run { _, app in
            let throttle = LoginThrottle(
                buckets: app.services.buckets, policy: .init(windowSeconds: 60, perNameAndAddress: 2))
            _ = try await throttle.attempt("login", subject: "x", address: "a")
            _ = try await throttle.attempt("login", subject: "x", address: "a")
            // MUT: a flood of other keys
            try await app.database.query(
                """
                INSERT INTO rate_buckets (key, hits, window_start, expires_at)
                SELECT 'flood:' || g, 1, now(), now() + interval '1 minute' FROM generate_series(1, 120000) g
                """)
            for i in 0..<5 { _ = try? await throttle.attempt("login", subject: "y\(i)", address: "b\(i)") }
            // validate: still counted
            await #expect(throws: Problem.self) { try await throttle.attempt("login", subject: "x", address: "a") }
            // once the window is over the bucket starts again
            try await app.database.query(
                "UPDATE rate_buckets SET expires_at = now() - interval '1 second' WHERE key LIKE 'login:%'")
            _ = try await throttle.attempt("login", subject: "x", address: "a")
            // and expired rows are removed a few at a time by later attempts, not all at once
            try await app.database.query(
                "UPDATE rate_buckets SET expires_at = now() - interval '2 minutes' WHERE key LIKE 'flood:%'")
            _ = try await throttle.attempt("login", subject: "z", address: "c")
            let left = try await app.database.query("SELECT count(*)::int FROM rate_buckets WHERE key LIKE 'flood:%'")[
                0
            ].decode(Int.self)
            #expect(left == 120000 - 20)
        }
    }

    @Test func passwordChangesAreThrottledToo() async throws {
        try await TestApp.run { client, _ in
            let session = try await client.register("Pat", password: "pat password")
            var codes: [String?] = []
            // MUT
            for i in 0..<7 {
                let response = try await client.send(
                    .put, "/v1/me/password",
                    body: ["currentPassword": "wrong \(i)", "newPassword": "brand new password"], token: session.token)
                codes.append(response.problemCode)
            }
            // validate
            #expect(codes.prefix(5).allSatisfy { $0 == "wrong_password" })
            #expect(codes.suffix(2).allSatisfy { $0 == "too_many_attempts" })
        }
    }

    @Test func sessionsEndAtTheirAbsoluteLifetimeHoweverOftenUsed() async throws {
        try await TestApp.run(configure: { $0.sessionMaxLifetime = .seconds(10 * 86400) }) { client, app in
            let session = try await client.register("Sam")
            #expect(try await client.send(.get, "/v1/me", token: session.token).status == .ok)
            // MUT: signed in 11 days ago and used a minute ago, so the sliding expiry is still ahead
            try await app.database.query(
                "UPDATE sessions SET created_at = now() - interval '11 days', last_used_at = now() - interval '2 minutes'"
            )
            await app.settle()
            // validate
            let me = try await client.send(.get, "/v1/me", token: session.token)
            #expect(me.status == .unauthorized)
            #expect(me.problemCode == "invalid_token")
            // a slide never moves the expiry past the absolute end
            let fresh = try await client.register("Sue")
            try await app.database.query(
                "UPDATE sessions SET created_at = now() - interval '9 days', last_used_at = now() - interval '2 minutes' WHERE user_id = \(fresh.id)"
            )
            await app.settle()
            #expect(try await client.send(.get, "/v1/me", token: fresh.token).status == .ok)
            // the slide is written beside the request, with the signals
            try await app.flushSignals()
            let (end, slid) = try await app.database.query(
                """
                SELECT expires_at <= created_at + interval '10 days', last_used_at > now() - interval '1 minute'
                FROM sessions WHERE user_id = \(fresh.id)
                """)[0].decode((Bool, Bool).self)
            #expect(end)
            #expect(slid)
        }
    }

    @Test func theAbsoluteLifetimeIsConfigurable() throws {
        #expect(
            try AppConfiguration.fromEnvironment(["SESSION_MAX_DAYS": "7"]).sessionMaxLifetime == .seconds(7 * 86400))
        #expect(try AppConfiguration.fromEnvironment([:]).sessionMaxLifetime == .seconds(90 * 86400))
        #expect(throws: ConfigurationError.self) { try AppConfiguration.fromEnvironment(["SESSION_MAX_DAYS": "0"]) }
    }
}
