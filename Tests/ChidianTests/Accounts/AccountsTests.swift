import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import Chidian

@Suite struct RegisterTests {
    @Test func registerReturnsASessionAndTheUser() async throws {
        try await TestApp.run { client, _ in
            // MUT
            let response = try await client.send(.post, "/v1/auth/register", body: ["name": "  小明 ", "password": "12345678"])
            // validate
            #expect(response.status == .created)
            let body = try response.json()
            let user = try #require(body["user"] as? [String: Any])
            #expect((body["token"] as? String)?.count == 43)
            #expect(user["name"] as? String == "小明")
            #expect(user["role"] as? String == "user")
            #expect(user["reviewCount"] as? Int == 0)
            #expect(user.keys.contains("avatarUrl"))
            #expect(user["avatarUrl"] is NSNull)
            #expect(user["createdAt"] as? String != nil)
            #expect(!response.text.contains("password"))
        }
    }

    @Test(arguments: [
        (["name": "   ", "password": "12345678"], 400, "name_required"),
        (["password": "12345678"], 400, "name_required"),
        (["name": String(repeating: "a", count: 33), "password": "12345678"], 400, "invalid_name"),
        (["name": "bad\u{7}name", "password": "12345678"], 400, "invalid_name"),
        (["name": "shorty", "password": "1234567"], 400, "weak_password"),
        (["name": "shorty"], 400, "weak_password"),
        (["name": "boss", "password": "12345678", "role": "admin"], 400, "invalid_role"),
        (["name": "boss", "password": "12345678", "role": "chef"], 400, "invalid_role"),
    ] as [([String: String], Int, String)])
    func registerRejects(body: [String: String], status: Int, code: String) async throws {
        try await TestApp.run { client, _ in
            let response = try await client.send(.post, "/v1/auth/register", body: body)
            #expect(response.status.code == status)
            #expect(response.problemCode == code)
        }
    }

    @Test func thirtyTwoCharactersOfChineseAreFine() async throws {
        try await TestApp.run { client, _ in
            let name = String(repeating: "吃", count: 32)
            let response = try await client.send(.post, "/v1/auth/register", body: ["name": name, "password": "12345678"])
            #expect(response.status == .created)
        }
    }

    @Test func namesAreUniqueIgnoringCase() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Alice")
            let again = try await client.send(.post, "/v1/auth/register", body: ["name": "alice", "password": "12345678"])
            #expect(again.status == .conflict)
            #expect(again.problemCode == "name_taken")
        }
    }

    @Test func managersCanRegister() async throws {
        try await TestApp.run { client, _ in
            let response = try await client.send(
                .post, "/v1/auth/register", body: ["name": "Boss", "password": "12345678", "role": "manager"])
            #expect(try (response.json()["user"] as? [String: Any])?["role"] as? String == "manager")
        }
    }

    @Test func badJSONIsInvalidBodyNamingTheField() async throws {
        try await TestApp.run { client, _ in
            let broken = try await client.sendRaw(.post, "/v1/auth/register", body: "{\"name\": ")
            #expect(broken.status == .badRequest)
            #expect(broken.problemCode == "invalid_body")
            let wrongType = try await client.sendRaw(.post, "/v1/auth/register", body: "{\"name\": 5, \"password\": \"12345678\"}")
            #expect(wrongType.problemCode == "invalid_body")
            #expect(try (wrongType.json()["detail"] as? String)?.contains("name") == true)
            let huge = try await client.sendRaw(
                .post, "/v1/auth/register", body: "{\"name\": \"\(String(repeating: "x", count: 1_100_000))\"}")
            #expect(huge.status == .contentTooLarge)
        }
    }
}

@Suite struct LoginTests {
    @Test func loginIgnoresCaseAndIssuesAWorkingToken() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Bob", password: "bob password")
            let response = try await client.send(.post, "/v1/auth/login", body: ["name": "BOB", "password": "bob password"])
            #expect(response.status == .ok)
            let token = try #require(try response.json()["token"] as? String)
            let me = try await client.send(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            #expect(try me.json()["name"] as? String == "Bob")
        }
    }

    @Test func unknownNameAndWrongPassword() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Carol", password: "carol password")
            let unknown = try await client.send(.post, "/v1/auth/login", body: ["name": "Nobody", "password": "whatever1"])
            #expect(unknown.status == .notFound)
            #expect(unknown.problemCode == "user_not_found")
            let wrong = try await client.send(.post, "/v1/auth/login", body: ["name": "Carol", "password": "not it at all"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problemCode == "wrong_password")
        }
    }

    @Test func repeatedFailuresForANameAreThrottledWithoutBlockingOthers() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Dave", password: "dave password")
            _ = try await client.register("Erin", password: "erin password")
            for _ in 0..<5 {
                let wrong = try await client.send(.post, "/v1/auth/login", body: ["name": "Dave", "password": "guess guess"])
                #expect(wrong.problemCode == "wrong_password")
            }
            // MUT: even the right password waits now
            let blocked = try await client.send(.post, "/v1/auth/login", body: ["name": "dave", "password": "dave password"])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.problemCode == "too_many_attempts")
            let retryAfter = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter > 0 && retryAfter <= 900)
            // validate: another user is not slowed
            let other = try await client.send(.post, "/v1/auth/login", body: ["name": "Erin", "password": "erin password"])
            #expect(other.status == .ok)
        }
    }
}

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
            try await app.database.query("UPDATE sessions SET expires_at = now() - interval '1 second', created_at = now() - interval '31 days'")
            let expired = try await client.send(.get, "/v1/me", token: gina.token)
            #expect(expired.status == .unauthorized)
            #expect(expired.problemCode == "invalid_token")
        }
    }

    @Test func tokensAreStoredOnlyAsHashes() async throws {
        try await TestApp.run { client, app in
            let hank = try await client.register("Hank", password: "hank password")
            let rows = try await app.database.query("SELECT token_hash, (SELECT password_hash FROM users WHERE name = 'Hank') FROM sessions")
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

@Suite struct MeTests {
    @Test func renameShowsEverywhereAndKeepsNamesUnique() async throws {
        try await TestApp.run { client, _ in
            let ivy = try await client.register("Ivy")
            _ = try await client.register("Jack")
            let renamed = try await client.send(.patch, "/v1/me", body: ["name": " Ivy Chen "], token: ivy.token)
            #expect(renamed.status == .ok)
            #expect(try renamed.json()["name"] as? String == "Ivy Chen")
            let profile = try await client.send(.get, "/v1/users/\(ivy.id)")
            #expect(try profile.json()["name"] as? String == "Ivy Chen")
            let taken = try await client.send(.patch, "/v1/me", body: ["name": "JACK"], token: ivy.token)
            #expect(taken.problemCode == "name_taken")
            let blank = try await client.send(.patch, "/v1/me", body: ["name": ""], token: ivy.token)
            #expect(blank.problemCode == "name_required")
            let sameCase = try await client.send(.patch, "/v1/me", body: ["name": "ivy chen"], token: ivy.token)
            #expect(sameCase.status == .ok)
            let anonymous = try await client.send(.patch, "/v1/me", body: ["name": "x"])
            #expect(anonymous.problemCode == "login_required")
        }
    }

    @Test func passwordChangeRevokesOtherSessions() async throws {
        try await TestApp.run { client, _ in
            let first = try await client.register("Kim", password: "old password")
            let second = try await client.send(.post, "/v1/auth/login", body: ["name": "Kim", "password": "old password"])
            let secondToken = try second.json()["token"] as! String

            let wrong = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "nope nope", "newPassword": "new password"], token: first.token)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problemCode == "wrong_password")
            let weak = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "old password", "newPassword": "short"], token: first.token)
            #expect(weak.problemCode == "weak_password")

            // MUT
            let changed = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "old password", "newPassword": "new password"], token: first.token)
            // validate
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: first.token).status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: secondToken).problemCode == "invalid_token")
            let oldLogin = try await client.send(.post, "/v1/auth/login", body: ["name": "Kim", "password": "old password"])
            #expect(oldLogin.problemCode == "wrong_password")
            let newLogin = try await client.send(.post, "/v1/auth/login", body: ["name": "Kim", "password": "new password"])
            #expect(newLogin.status == .ok)
        }
    }

    @Test func avatarMustBeTheUsersOwnImage() async throws {
        try await TestApp.run { client, app in
            let leo = try await client.register("Leo")
            let mia = try await client.register("Mia")
            let imageID = try await TestImages.row(app, uploaderID: leo.id)
            let notMine = try await client.send(.put, "/v1/me/avatar", body: ["imageId": imageID], token: mia.token)
            #expect(notMine.problemCode == "invalid_images")
            let missing = try await client.send(.put, "/v1/me/avatar", body: ["imageId": "i_nothing"], token: leo.token)
            #expect(missing.problemCode == "image_not_found")
            let mine = try await client.send(.put, "/v1/me/avatar", body: ["imageId": imageID], token: leo.token)
            #expect(mine.status == .ok)
            #expect(try mine.json()["avatarUrl"] as? String == "/v1/images/\(imageID)")
        }
    }

    @Test func publicProfileAndUnknownUser() async throws {
        try await TestApp.run { client, _ in
            let nora = try await client.register("Nora")
            let profile = try await client.send(.get, "/v1/users/\(nora.id)")
            #expect(profile.status == .ok)
            #expect(try profile.json()["id"] as? String == nora.id)
            let missing = try await client.send(.get, "/v1/users/u_missing")
            #expect(missing.status == .notFound)
            #expect(missing.problemCode == "user_not_found")
        }
    }
}
