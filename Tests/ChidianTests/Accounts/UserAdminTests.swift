import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct UserAdminTests {
    @Test func createdAdminCanSignIn() async throws {
        try await TestApp.run { client, app in
            let admin = UserAdmin(database: app.database, config: app.services.config)
            // MUT
            let created = try await admin.create(name: "Root", password: "root password", role: .admin)
            // validate
            #expect(created.role == .admin)
            let login = try await client.send(
                .post, "/v1/auth/login", body: ["name": "root", "password": "root password"])
            #expect(login.status == .ok)
            #expect(try (login.json()["user"] as? [String: Any])?["role"] as? String == "admin")
            await #expect(throws: AccountError.nameTaken("ROOT")) {
                try await admin.create(name: "ROOT", password: "another one", role: .user)
            }
            await #expect(throws: AccountError.weakPassword(min: 8)) {
                try await admin.create(name: "Weak", password: "short", role: .user)
            }
        }
    }

    @Test func setRoleAndListAndResetPassword() async throws {
        try await TestApp.run { client, app in
            let admin = UserAdmin(database: app.database, config: app.services.config)
            let olga = try await client.register("Olga", password: "olga password")
            try await admin.setRole(name: "OLGA", role: .manager)
            #expect(try await admin.list().first { $0.name == "Olga" }?.role == .manager)
            await #expect(throws: AccountError.userNotFound("No user is named Nobody.")) {
                try await admin.setRole(name: "Nobody", role: .user)
            }

            // MUT
            let password = try await admin.resetPassword(name: "olga")
            await app.settle()
            // validate: every session is gone, the new password works, the old one does not
            #expect(password.count == 16)
            #expect(try await client.send(.get, "/v1/me", token: olga.token).problemCode == "invalid_token")
            #expect(
                try await client.send(.post, "/v1/auth/login", body: ["name": "Olga", "password": password]).status
                    == .ok)
            #expect(
                try await client.send(.post, "/v1/auth/login", body: ["name": "Olga", "password": "olga password"])
                    .problemCode
                    == "wrong_password")
        }
    }

    @Test func theBinaryCreatesAnAdmin() async throws {
        try await TestDatabase.withFresh { _, url in
            let result = try await ChidianBinary.run(
                ["user", "create", "--name", "Boss", "--password", "boss password", "--role", "admin"], databaseURL: url
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("created admin Boss"))
            let again = try await ChidianBinary.run(
                ["user", "create", "--name", "boss", "--password", "boss password", "--role", "user"], databaseURL: url)
            #expect(again.status != 0)
            #expect(again.stderr.contains("already used"))
            let list = try await ChidianBinary.run(["user", "list"], databaseURL: url)
            #expect(list.stdout.contains("\tBoss\tadmin\t"))
        }
    }
}
