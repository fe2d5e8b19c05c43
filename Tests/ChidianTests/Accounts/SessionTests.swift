import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct SessionTests {
    @Test func logoutRevokesTheToken() async throws {
        try await TestApp.run { client, _ in
            let frank = try await client.register("Frank")
            let out = try await client.send(.post, "/v1/auth/logout", token: frank.token)
            #expect(out.status == .noContent)
            let me = try await client.send(.get, "/v1/me", token: frank.token)
            #expect(me.status == .unauthorized)
            #expect(me.problemCode == "invalid_token")
        }
    }

    @Test func missingUnknownAndExpiredTokens() async throws {
        try await TestApp.run { client, app in
            let nobody = try await client.send(.get, "/v1/me")
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            let unknown = try await client.send(.get, "/v1/me", token: "not-a-token")
            #expect(unknown.problemCode == "invalid_token")
            let malformed = try await client.send(.get, "/v1/me", headers: [.authorization: "Basic abc"])
            #expect(malformed.problemCode == "invalid_token")

            let gina = try await client.register("Gina")
            try await app.database.query(
                "UPDATE sessions SET expires_at = now() - interval '1 second', created_at = now() - interval '31 days'")
            await app.settle()
            let expired = try await client.send(.get, "/v1/me", token: gina.token)
            #expect(expired.status == .unauthorized)
            #expect(expired.problemCode == "invalid_token")
        }
    }

    @Test func tokensAreStoredOnlyAsHashes() async throws {
        try await TestApp.run { client, app in
            let hank = try await client.register("Hank", password: "hank password")
            let rows = try await app.database.query(
                "SELECT token_hash, (SELECT password_hash FROM users WHERE name = 'Hank') FROM sessions")
            let (hash, passwordHash) = try rows[0].decode((Data, String).self)
            #expect(Array(hash) == Tokens.hash(hank.token))
            #expect(passwordHash.hasPrefix("$2"))
            #expect(!passwordHash.contains("hank password"))
            let me = try await client.send(.get, "/v1/me", token: hank.token)
            #expect(!me.text.contains("$2"))
        }
    }

    @Test func visitorIDsAreChecked() async throws {
        try await TestApp.run { client, _ in
            let bad = try await client.send(.get, "/v1/users/x", headers: [.xVisitorID: "short"])
            #expect(bad.status == .badRequest)
            #expect(bad.problemCode == "invalid_visitor_id")
            let evil = try await client.send(.get, "/v1/users/x", headers: [.xVisitorID: "abcdefgh;drop"])
            #expect(evil.problemCode == "invalid_visitor_id")
            let fine = try await client.send(.get, "/v1/users/x", headers: [.xVisitorID: "visitor_123-abc"])
            #expect(fine.problemCode == "user_not_found")
        }
    }
}
