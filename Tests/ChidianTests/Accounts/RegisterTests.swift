import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct RegisterTests {
    @Test func registerReturnsASessionAndTheUser() async throws {
        try await TestApp.run { client, _ in
            // MUT
            let response = try await client.send(
                .post, "/v1/auth/register", body: ["name": "  小明 ", "password": "12345678"])
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

    @Test(
        arguments: [
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
            let response = try await client.send(
                .post, "/v1/auth/register", body: ["name": name, "password": "12345678"])
            #expect(response.status == .created)
        }
    }

    @Test func namesAreUniqueIgnoringCase() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Alice")
            let again = try await client.send(
                .post, "/v1/auth/register", body: ["name": "alice", "password": "12345678"])
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
            let wrongType = try await client.sendRaw(
                .post, "/v1/auth/register", body: "{\"name\": 5, \"password\": \"12345678\"}")
            #expect(wrongType.problemCode == "invalid_body")
            #expect(try (wrongType.json()["detail"] as? String)?.contains("name") == true)
            let huge = try await client.sendRaw(
                .post, "/v1/auth/register", body: "{\"name\": \"\(String(repeating: "x", count: 1_100_000))\"}")
            #expect(huge.status == .contentTooLarge)
        }
    }
}
