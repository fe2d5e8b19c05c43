import Foundation
import Testing

@testable import ChidianClient

/// 登录 / 注册, each refusal as its typed code, and the token kept and dropped.
@Suite(Demo.needsServer) struct AccountScreenTests {
    @Test func loginKeepsTheTokenAndLogoutDropsIt() async throws {
        let client = try Demo.client()
        #expect(await client.isSignedIn == false)
        // MUT
        let user = try await client.login(name: "user1", password: "111")
        // validate: names match case-insensitively; the token rides on the next requests
        #expect(user.name == "User1" && user.role == .user)
        #expect(await client.isSignedIn)
        #expect(try await client.me().id == user.id)
        try await client.logout()
        #expect(await client.isSignedIn == false)
        let anonymous = try await Demo.refusal { try await client.me() }
        #expect(anonymous.code == .loginRequired && anonymous.status == 401)
    }

    @Test func loginRefusals() async throws {
        let client = try Demo.client()
        let wrong = try await Demo.refusal { try await client.login(name: "User2", password: "not it") }
        #expect(wrong.code == .wrongPassword && wrong.status == 401)
        #expect(!wrong.title.isEmpty && !wrong.detail.isEmpty)
        let nobody = try await Demo.refusal { try await client.login(name: Demo.uniqueName("nobody"), password: "x") }
        #expect(nobody.code == .userNotFound && nobody.status == 404)
        let blank = try await Demo.refusal { try await client.login(name: " ", password: "x") }
        #expect(blank.code == .nameRequired)
        let long = try await Demo.refusal {
            try await client.login(name: "User2", password: String(repeating: "密", count: 25))
        }
        #expect(long.code == .passwordTooLong)
        #expect(await client.isSignedIn == false)
    }

    @Test func registerSignsInAndEachRefusalHasItsCode() async throws {
        let client = try Demo.client()
        let name = Demo.uniqueName("食客")
        // MUT
        let user = try await client.register(name: "  \(name)  ", password: "correct horse")
        // validate
        #expect(user.name == name && user.role == .user && user.reviewCount == 0)
        #expect(try await client.me().name == name)

        let other = try Demo.client()
        let cases: [(name: String, password: String, code: ChidianError.Code)] = [
            (name.uppercased(), "correct horse", .nameTaken),
            ("User1", "correct horse", .nameTaken),
            ("   ", "correct horse", .nameRequired),
            (String(repeating: "名", count: 33), "correct horse", .invalidName),
            ("bell\u{7}name", "correct horse", .invalidName),
            (Demo.uniqueName("short"), "1234567", .weakPassword),
            (Demo.uniqueName("long"), String(repeating: "a", count: 73), .passwordTooLong),
            (Demo.uniqueName("nul"), "correct\u{0}horse", .invalidPassword),
        ]
        for refused in cases {
            let error = try await Demo.refusal {
                try await other.register(name: refused.name, password: refused.password)
            }
            #expect(error.code == refused.code, "\(refused.name)")
            #expect(error.status == (refused.code == .nameTaken ? 409 : 400))
        }
        #expect(await other.isSignedIn == false)
    }
}
