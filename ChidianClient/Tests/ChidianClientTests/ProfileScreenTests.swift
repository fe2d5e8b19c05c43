import Foundation
import Testing

@testable import ChidianClient

/// 个人中心: a user's page and comments, renaming, the password, forgetting clicks, reporting.
@Suite(Demo.needsServer) struct ProfileScreenTests {
    @Test func aUsersPageAndTheirComments() async throws {
        let client = try Demo.client()
        // MUT
        let user = try await client.user("u001")
        let comments = try await client.comments(ofUser: "u001", pageSize: 5).first(12)
        // validate
        #expect(user.name == "User1" && user.reviewCount > 0)
        #expect(!comments.isEmpty && comments.allSatisfy { $0.author.id == "u001" })
        let missing = try await Demo.refusal { try await client.user("u_no_such_user") }
        #expect(missing.code == .userNotFound)
    }

    @Test func renameChangePasswordForgetClicksAndReport() async throws {
        let client = try Demo.client()
        try await client.register(name: Demo.uniqueName("old"), password: "first password")
        let name = Demo.uniqueName("new")
        // MUT
        let renamed = try await client.rename(to: name)
        try await client.changePassword(from: "first password", to: "second password")
        _ = try await client.comment("c001")
        try await client.resetInterests()
        try await client.report(comment: "c002", reason: .offTopic, note: "与餐厅无关")
        // validate
        #expect(renamed.name == name)
        #expect(try await client.interests().isEmpty)
        let again = try await Demo.refusal { try await client.report(comment: "c002", reason: .spam) }
        #expect(again.code == .alreadyReported && again.status == 409)
        let wrong = try await Demo.refusal { try await client.changePassword(from: "first password", to: "x") }
        #expect(wrong.code == .wrongPassword || wrong.code == .weakPassword)
        let other = try Demo.client()
        #expect(try await other.login(name: name, password: "second password").name == name)
        let taken = try await Demo.refusal { try await other.rename(to: "User1") }
        #expect(taken.code == .nameTaken)
    }

    @Test func exportThenDeleteTheAccount() async throws {
        let client = try Demo.client()
        let name = Demo.uniqueName("gone")
        let me = try await client.register(name: name, password: "delete password")
        // MUT
        let archive = try await client.exportMyData()
        let wrong = try await Demo.refusal { try await client.deleteAccount(password: "not it") }
        try await client.deleteAccount(password: "delete password")
        // validate
        #expect(archive.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(wrong.code == .wrongPassword)
        let gone = try await Demo.refusal { try await Demo.client().user(me.id) }
        #expect(gone.code == .userNotFound)
        let login = try await Demo.refusal { try await Demo.client().login(name: name, password: "delete password") }
        #expect(login.code == .userNotFound)
    }
}
