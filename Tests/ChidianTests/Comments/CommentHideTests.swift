import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentHideTests {
    @Test func hidingKeepsTheRowAndUnknownIdsThrow() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(4)["id"] as! String
            // MUT
            let result = try await CommentModeration.hide(id: id, database: app.database)
            // validate
            #expect(result == .hidden)
            let row = try await app.database.query("SELECT hidden_at IS NOT NULL FROM comments WHERE id = \(id)")
            #expect(try row.first?.decode(Bool.self) == true)
            await #expect(throws: CommentError.notFound(id: "m_missing")) {
                try await CommentModeration.hide(id: "m_missing", database: app.database)
            }
        }
    }

    @Test func theCommandHidesAndNamesUnknownIdsInOneLine() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(4)["id"] as! String
            // MUT
            let hide = try await ChidianBinary.run(["comment", "hide", id], databaseURL: app.url)
            let again = try await ChidianBinary.run(["comment", "hide", id], databaseURL: app.url)
            let unknown = try await ChidianBinary.run(["comment", "hide", "m_missing"], databaseURL: app.url)
            await app.settle()
            // validate
            #expect(hide.status == 0, "\(hide.stderr)")
            #expect(hide.stdout.contains(id))
            #expect(again.status == 0)
            #expect(unknown.status != 0)
            let message = unknown.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(message.split(separator: "\n").count == 1, "\(message)")
            #expect(message.contains("m_missing"))
            #expect(try await client.send(.get, "/v1/comments/\(id)").status == .notFound)
            #expect(
                try CommentFixture.ids(try await client.send(.get, "/v1/me/comments", token: world.user.token)).isEmpty)
        }
    }
}
