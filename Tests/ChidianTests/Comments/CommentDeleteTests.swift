import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentDeleteTests {
    @Test func theAuthorOrAnAdminDeletes() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let image = try await CommentFixture.image(app, uploaderID: world.user.id)
            let byAuthor =
                try await world.comment(["rating": 2, "body": "不好", "imageIds": [image]], as: world.user)["id"]
                as! String
            let byAdmin = try await world.review(1)["id"] as! String
            let admin = try await app.admin(client)
            // MUT
            let authorDelete = try await client.send(.delete, "/v1/comments/\(byAuthor)", token: world.user.token)
            let adminDelete = try await client.send(.delete, "/v1/comments/\(byAdmin)", token: admin.token)
            let again = try await client.send(.delete, "/v1/comments/\(byAuthor)", token: world.user.token)
            // validate
            #expect(authorDelete.status == .noContent)
            #expect(adminDelete.status == .noContent)
            #expect(again.status == .notFound)
            #expect(again.problemCode == "comment_not_found")
            #expect(try await client.send(.get, "/v1/comments/\(byAuthor)").status == .notFound)
            #expect(try CommentFixture.ids(try await client.send(.get, "/v1/stores/\(world.storeID)/comments")).isEmpty)
            #expect(try await app.database.query("SELECT count(*)::int FROM comment_images")[0].decode(Int.self) == 0)
            // The image itself stays: it may be used elsewhere.
            #expect(try await app.database.query("SELECT count(*)::int FROM images")[0].decode(Int.self) == 1)
        }
    }

    @Test func othersMayNotDelete() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let other = try await client.register("路人")
            for session in [other, world.manager] {
                let response = try await client.send(.delete, "/v1/comments/\(id)", token: session.token)
                #expect(response.status == .forbidden)
                #expect(response.problemCode == "not_author")
            }
            let nobody = try await client.send(.delete, "/v1/comments/\(id)")
            #expect(nobody.problemCode == "login_required")
            #expect(try await client.send(.get, "/v1/comments/\(id)").status == .ok)
        }
    }

    @Test func deleteHonoursIfMatch() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let stale = try await client.send(
                .delete, "/v1/comments/\(id)", token: world.user.token, headers: [.ifMatch: "\"2\""])
            let current = try await client.send(
                .delete, "/v1/comments/\(id)", token: world.user.token, headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.problemCode == "version_conflict")
            #expect(current.status == .noContent)
        }
    }
}
