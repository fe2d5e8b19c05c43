import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

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
            let second = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Kim", "password": "old password"])
            let secondToken = try #require(second.json()["token"] as? String)

            let wrong = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "nope nope", "newPassword": "new password"],
                token: first.token)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.problemCode == "wrong_password")
            let weak = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "old password", "newPassword": "short"],
                token: first.token)
            #expect(weak.problemCode == "weak_password")

            // MUT
            let changed = try await client.send(
                .put, "/v1/me/password", body: ["currentPassword": "old password", "newPassword": "new password"],
                token: first.token)
            // validate
            #expect(changed.status == .noContent)
            #expect(try await client.send(.get, "/v1/me", token: first.token).status == .ok)
            #expect(try await client.send(.get, "/v1/me", token: secondToken).problemCode == "invalid_token")
            let oldLogin = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Kim", "password": "old password"])
            #expect(oldLogin.problemCode == "wrong_password")
            let newLogin = try await client.send(
                .post, "/v1/auth/login", body: ["name": "Kim", "password": "new password"])
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
