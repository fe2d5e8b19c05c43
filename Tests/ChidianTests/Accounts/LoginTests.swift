import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct LoginTests {
    @Test func loginIgnoresCaseAndIssuesAWorkingToken() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Bob", password: "bob password")
            let response = try await client.send(
                .post, "/v1/auth/login", body: ["name": "BOB", "password": "bob password"])
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
            let unknown = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Nobody", "password": "whatever1"])
            #expect(unknown.status == .notFound)
            #expect(unknown.problemCode == "user_not_found")
            let wrong = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Carol", "password": "not it at all"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problemCode == "wrong_password")
        }
    }

    @Test func repeatedFailuresForANameAreThrottledWithoutBlockingOthers() async throws {
        try await TestApp.run { client, _ in
            _ = try await client.register("Dave", password: "dave password")
            _ = try await client.register("Erin", password: "erin password")
            for _ in 0..<5 {
                let wrong = try await client.send(
                    .post, "/v1/auth/login", body: ["name": "Dave", "password": "guess guess"])
                #expect(wrong.problemCode == "wrong_password")
            }
            // MUT: even the right password waits now
            let blocked = try await client.send(
                .post, "/v1/auth/login", body: ["name": "dave", "password": "dave password"])
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.problemCode == "too_many_attempts")
            let retryAfter = try #require(blocked.headers[.retryAfter].flatMap { Int($0) })
            #expect(retryAfter > 0 && retryAfter <= 900)
            // validate: another user is not slowed
            let other = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Erin", "password": "erin password"])
            #expect(other.status == .ok)
        }
    }
}
