import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentEditTests {
    @Test func theAuthorEditsRatingBodyAndImages() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let images = try await CommentFixture.images(app, uploaderID: world.user.id, count: 3)
            let created = try await world.comment(["rating": 2, "body": "一般", "imageIds": [images[0]]], as: world.user)
            let id = created["id"] as! String
            // MUT
            let response = try await client.send(
                .patch, "/v1/comments/\(id)",
                body: ["rating": 4, "body": " 二刷，好多了 ", "imageIds": [images[2], images[1]]],
                token: world.user.token, headers: [.ifMatch: "\"1\""])
            // validate
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == "\"2\"")
            let body = try response.json()
            #expect(body["rating"] as? Int == 4)
            #expect(body["body"] as? String == "二刷，好多了")
            #expect(body["imageUrls"] as? [String] == [images[2], images[1]].map(ImageURL.path))
            #expect(body["version"] as? Int == 2)
            #expect(body["createdAt"] as? String == created["createdAt"] as? String)
            // JSON timestamps have whole seconds; the database shows the edit time moved.
            let moved = try await app.database.query("SELECT updated_at > created_at FROM comments WHERE id = \(id)")
            #expect(try moved[0].decode(Bool.self))
            let read = try await client.send(.get, "/v1/comments/\(id)").json()
            #expect(read["rating"] as? Int == 4)
            #expect(read["imageUrls"] as? [String] == [images[2], images[1]].map(ImageURL.path))
        }
    }

    @Test func absentFieldsStayAndAnEmptyImageListClearsImages() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let image = try await CommentFixture.image(app, uploaderID: world.user.id)
            let id =
                try await world.comment(["rating": 3, "body": "还行", "imageIds": [image]], as: world.user)["id"]
                as! String
            // MUT
            let bodyOnly = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["body": "还行吧"], token: world.user.token)
            let cleared = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["imageIds": []], token: world.user.token)
            // validate
            #expect(try bodyOnly.json()["rating"] as? Int == 3)
            #expect(try bodyOnly.json()["imageUrls"] as? [String] == [ImageURL.path(image)])
            #expect(try cleared.json()["body"] as? String == "还行吧")
            #expect(try cleared.json()["imageUrls"] as? [String] == [])
            #expect(try cleared.json()["version"] as? Int == 3)
        }
    }

    @Test func anEmptyPatchChangesNothingButStillChecksIfMatch() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let same = try await client.send(
                .patch, "/v1/comments/\(id)", body: [:], token: world.user.token, headers: [.ifMatch: "\"1\""])
            let stale = try await client.send(
                .patch, "/v1/comments/\(id)", body: [:], token: world.user.token, headers: [.ifMatch: "\"7\""])
            #expect(same.status == .ok)
            #expect(try same.json()["version"] as? Int == 1)
            #expect(stale.status == .preconditionFailed)
            #expect(stale.problemCode == "version_conflict")
        }
    }

    @Test func editsFollowTheCreateRules() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let theirs = try await CommentFixture.image(app, uploaderID: world.manager.id)
            let path = "/v1/comments/\(id)"
            let cases: [([String: Any], String)] = [
                (["rating": 0], "invalid_rating"),
                (["rating": 4.5], "invalid_rating"),
                (["rating": "5"], "invalid_rating"),
                (["body": "   "], "body_required"),
                (["body": String(repeating: "a", count: 5001)], "body_too_long"),
                (["imageIds": [theirs]], "invalid_images"),
                (["imageIds": (0..<10).map { "i_\($0)" }], "invalid_images"),
                (["body": 5], "invalid_body"),
            ]
            for (body, code) in cases {
                let response = try await client.send(.patch, path, body: body, token: world.user.token)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.problemCode == code, "\(body)")
            }
            #expect(try await client.send(.get, path).json()["version"] as? Int == 1)
        }
    }

    @Test func aNoticeEditIgnoresARating() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.comment(["body": "十点开门"], as: world.manager)["id"] as! String
            let response = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["body": "九点开门", "rating": 5], token: world.manager.token)
            #expect(response.status == .ok)
            #expect(try response.json()["rating"] is NSNull)
            #expect(try response.json()["body"] as? String == "九点开门")
        }
    }

    @Test func onlyTheAuthorEditsNotEvenAdmins() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let admin = try await app.admin(client)
            let other = try await client.register("路人")
            // MUT / validate
            for session in [admin, other, world.manager] {
                let response = try await client.send(
                    .patch, "/v1/comments/\(id)", body: ["body": "改"], token: session.token)
                #expect(response.status == .forbidden)
                #expect(response.problemCode == "not_author")
            }
            let nobody = try await client.send(.patch, "/v1/comments/\(id)", body: ["body": "改"])
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            let missing = try await client.send(
                .patch, "/v1/comments/m_missing", body: ["body": "改"], token: world.user.token)
            #expect(missing.problemCode == "comment_not_found")
            #expect(try await client.send(.get, "/v1/comments/\(id)").json()["body"] as? String == "好吃")
        }
    }

    @Test func aStaleIfMatchIsRefused() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try await world.review(3)["id"] as! String
            let first = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 4], token: world.user.token, headers: [.ifMatch: "\"1\""]
            )
            let stale = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 5], token: world.user.token, headers: [.ifMatch: "\"1\""]
            )
            let garbage = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 5], token: world.user.token, headers: [.ifMatch: "soon"])
            let unconditional = try await client.send(
                .patch, "/v1/comments/\(id)", body: ["rating": 1], token: world.user.token)
            #expect(first.status == .ok)
            #expect(stale.status == .preconditionFailed)
            #expect(stale.problemCode == "version_conflict")
            #expect(garbage.status == .preconditionFailed)
            #expect(unconditional.status == .ok)
            #expect(try unconditional.json()["version"] as? Int == 3)
        }
    }

    @Test func ofTwoConcurrentEditsWithOneIfMatchExactlyOneWins() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            for round in 0..<5 {
                let id = try await world.review(3, "第\(round)轮")["id"] as! String
                let token = world.user.token
                // MUT
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for rating in [1, 5] {
                        group.addTask {
                            try await client.send(
                                .patch, "/v1/comments/\(id)", body: ["rating": rating, "body": "并发\(rating)"],
                                token: token, headers: [.ifMatch: "\"1\""]
                            ).status
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                // validate
                #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
                #expect(statuses.filter { $0 == .preconditionFailed }.count == 1, "\(statuses)")
                let final = try await client.send(.get, "/v1/comments/\(id)").json()
                #expect(final["version"] as? Int == 2)
                // The winner's rating and body went in together.
                #expect(final["body"] as? String == "并发\(final["rating"] as! Int)")
            }
            let totals = try await CommentFixture.totals(app, storeID: world.storeID)
            #expect(totals.kept == totals.live)
        }
    }
}
