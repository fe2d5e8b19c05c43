import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentReadTests {
    @Test func aCommentReadsBackWithItsVersionAsETag() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let created = try await world.review(5, "锅底很香")
            let id = created["id"] as! String
            // MUT
            let response = try await client.send(.get, "/v1/comments/\(id)")
            let untracked = try await client.send(.get, "/v1/comments/\(id)?track=false")
            // validate
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"1\"")
            let body = try response.json()
            #expect(body["id"] as? String == id)
            #expect(body["body"] as? String == "锅底很香")
            #expect(body["createdAt"] as? String == created["createdAt"] as? String)
            #expect(untracked.status == .ok)
            #expect(try untracked.json()["id"] as? String == id)
        }
    }

    @Test func unknownCommentsAreNotFound() async throws {
        try await TestApp.run { client, _ in
            for id in ["m_missing", "%00", String(repeating: "x", count: 300)] {
                let response = try await client.send(.get, "/v1/comments/\(id)")
                #expect(response.status == .notFound)
                #expect(response.problemCode == "comment_not_found")
            }
        }
    }

    @Test func hiddenCommentsAndCommentsOfArchivedStoresAreNotFound() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let hidden = try await world.review(1)["id"] as! String
            let archivedStore = try await CommentFixture.store(
                app, name: "已关门", categoryID: world.categoryID, managerID: world.manager.id)
            let ofArchived = try await world.review(2, storeID: archivedStore)["id"] as! String
            // MUT
            #expect(try await CommentModeration.hide(id: hidden, database: app.database) == .hidden)
            try await CommentFixture.archive(app, storeID: archivedStore)
            // validate
            for id in [hidden, ofArchived] {
                let response = try await client.send(.get, "/v1/comments/\(id)")
                #expect(response.status == .notFound)
                #expect(response.problemCode == "comment_not_found")
            }
        }
    }

    @Test func aRenameOfTheAuthorShowsOnTheirComments() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(4)["id"] as! String
            let avatar = try await CommentFixture.image(app, uploaderID: world.user.id)
            // MUT
            let renamed = try await client.send(.patch, "/v1/me", body: ["name": "美食家"], token: world.user.token)
            let avatarSet = try await client.send(
                .put, "/v1/me/avatar", body: ["imageId": avatar], token: world.user.token)
            // validate
            #expect(renamed.status == .ok)
            #expect(avatarSet.status == .ok)
            let author = try await client.send(.get, "/v1/comments/\(id)").json()["author"] as? [String: Any]
            #expect(author?["name"] as? String == "美食家")
            #expect(author?["avatarUrl"] as? String == "/v1/images/\(avatar)")
            let listed = try CommentFixture.items(try await client.send(.get, "/v1/stores/\(world.storeID)/comments"))
            #expect((listed.first?["author"] as? [String: Any])?["name"] as? String == "美食家")
            let mine = try CommentFixture.items(try await client.send(.get, "/v1/users/\(world.user.id)/comments"))
            #expect((mine.first?["author"] as? [String: Any])?["name"] as? String == "美食家")
        }
    }

    @Test func theLoaderKeepsTheOrderGivenAndSkipsWhatIsNotVisible() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let a = try await world.review(1)["id"] as! String
            let b = try await world.review(2)["id"] as! String
            let c = try await world.review(3)["id"] as! String
            _ = try await CommentModeration.hide(id: b, database: app.database)
            // MUT
            let views = try await CommentRepository(database: app.database).views(ids: [c, "m_missing", b, a, "\u{0}"])
            // validate
            #expect(views.map(\.id) == [c, a])
            #expect(views.map(\.rating) == [3, 1])
            #expect(views.allSatisfy { $0.store.category.name == "火锅" && $0.author.name == "食客" })
            #expect(try await CommentRepository(database: app.database).views(ids: []).isEmpty)
        }
    }
}
