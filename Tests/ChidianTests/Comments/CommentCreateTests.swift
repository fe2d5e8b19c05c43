import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentCreateTests {
    @Test func aUserWritesAReviewWithTheFullShape() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let storeImage = try await CommentFixture.image(app, uploaderID: world.manager.id)
            try await app.database.query(
                "INSERT INTO store_images (store_id, position, image_id) VALUES (\(world.storeID), 0, \(storeImage))")
            let images = try await CommentFixture.images(app, uploaderID: world.user.id, count: 3)
            let ordered = [images[2], images[0], images[1]]
            // MUT
            let response = try await world.post(
                ["rating": 4, "body": "  毛肚很新鲜 \n", "imageIds": ordered], as: world.user)
            // validate
            #expect(response.status == .created)
            let body = try response.json()
            let id = try #require(body["id"] as? String)
            #expect(response.headers[.eTag] == "\"1\"")
            #expect(response.headers[.location] == "/v1/comments/\(id)")
            #expect(body["kind"] as? String == "review")
            #expect(body["storeId"] as? String == world.storeID)
            #expect(body["rating"] as? Int == 4)
            #expect(body["body"] as? String == "毛肚很新鲜")
            #expect(body["imageUrls"] as? [String] == ordered.map { "/v1/images/\($0)" })
            #expect(body["version"] as? Int == 1)
            #expect(body["createdAt"] as? String != nil)
            #expect(body["updatedAt"] as? String != nil)
            let store = try #require(body["store"] as? [String: Any])
            #expect(store["id"] as? String == world.storeID)
            #expect(store["name"] as? String == "小龙坎")
            #expect(store["imageUrl"] as? String == "/v1/images/\(storeImage)")
            let category = try #require(store["category"] as? [String: Any])
            #expect(category["id"] as? String == world.categoryID)
            #expect(category["name"] as? String == "火锅")
            let author = try #require(body["author"] as? [String: Any])
            #expect(author["id"] as? String == world.user.id)
            #expect(author["name"] as? String == "食客")
            #expect(author.keys.contains("avatarUrl") && author["avatarUrl"] is NSNull)
        }
    }

    @Test func aManagerWritesANoticeOnTheirStoreAndTheRatingIsIgnored() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            // MUT
            let response = try await world.post(["rating": 5, "body": "周一店休"], as: world.manager)
            // validate
            #expect(response.status == .created)
            let body = try response.json()
            #expect(body["kind"] as? String == "notice")
            #expect(body.keys.contains("rating") && body["rating"] is NSNull)
            let store = try #require(body["store"] as? [String: Any])
            #expect(store.keys.contains("imageUrl") && store["imageUrl"] is NSNull)
            #expect(try await CommentFixture.totals(app, storeID: world.storeID).kept == [0, 0])
        }
    }

    @Test func aNoticeNeedsNoRatingAtAll() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let response = try await world.post(["body": "新品上市", "rating": "five"], as: world.manager)
            #expect(response.status == .created)
            #expect(try response.json()["rating"] is NSNull)
        }
    }

    @Test func aManagerCannotPostOnAnotherManagersStore() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let rival = try await client.register("隔壁老板", role: "manager")
            let response = try await world.post(["body": "来我们家"], as: rival)
            #expect(response.status == .forbidden)
            #expect(response.problemCode == "not_store_owner")
        }
    }

    @Test func adminsMayNotWrite() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client)
            let response = try await world.post(["rating": 5, "body": "官方点评"], as: admin)
            #expect(response.status == .forbidden)
            #expect(response.problemCode == "forbidden")
        }
    }

    @Test func nobodyAndVisitorsMustSignIn() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let nobody = try await world.post(["rating": 5, "body": "好"], as: nil)
            let visitor = try await client.send(
                .post, "/v1/stores/\(world.storeID)/comments", body: ["rating": 5, "body": "好"],
                headers: [HTTPField.Name("X-Visitor-Id")!: "visitor-12345"])
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            #expect(visitor.status == .unauthorized)
            #expect(visitor.problemCode == "login_required")
        }
    }

    /// The raw JSON of `rating`, nil to leave it out.
    @Test(arguments: [nil, "null", "0", "6", "-1", "3.5", "\"4\"", "true", "[4]", "{}"] as [String?])
    func reviewsNeedAnIntegerRatingFromOneToFive(rating: String?) async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let json = rating.map { "{\"body\": \"x\", \"rating\": \($0)}" } ?? "{\"body\": \"x\"}"
            let response = try await client.sendRaw(
                .post, "/v1/stores/\(world.storeID)/comments", body: json, token: world.user.token)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "invalid_rating")
        }
    }

    @Test func everyRatingFromOneToFiveIsAccepted() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            for rating in 1...5 {
                #expect(try await world.review(rating)["rating"] as? Int == rating)
            }
        }
    }

    @Test func bodiesMustNotBeBlankOrTooLong() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            // MUT
            let missing = try await world.post(["rating": 3], as: world.user)
            let blank = try await world.post(["rating": 3, "body": " \n\t　"], as: world.user)
            let tooLong = try await world.post(
                ["rating": 3, "body": String(repeating: "辣", count: 5001)], as: world.user)
            // A flag emoji is one character (two scalars): 5,000 of them are fine.
            let longest = try await world.post(
                ["rating": 3, "body": String(repeating: "🇨🇳", count: 5000)], as: world.user)
            let nul = try await world.post(["rating": 3, "body": "a\u{0}b"], as: world.user)
            let wrongType = try await world.post(["rating": 3, "body": 12], as: world.user)
            // validate
            #expect(missing.problemCode == "body_required")
            #expect(blank.status == .badRequest)
            #expect(blank.problemCode == "body_required")
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.problemCode == "body_too_long")
            #expect(longest.status == .created)
            #expect(nul.problemCode == "invalid_body")
            #expect(wrongType.problemCode == "invalid_body")
            #expect(try (wrongType.json()["detail"] as? String)?.contains("body") == true)
        }
    }

    @Test func imagesMustBeAtMostNineAndTheAuthors() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let mine = try await CommentFixture.images(app, uploaderID: world.user.id, count: 10)
            let theirs = try await CommentFixture.image(app, uploaderID: world.manager.id)
            // MUT
            let nine = try await world.post(
                ["rating": 5, "body": "九张图", "imageIds": Array(mine.prefix(9))], as: world.user)
            let ten = try await world.post(["rating": 5, "body": "十张图", "imageIds": mine], as: world.user)
            let unknown = try await world.post(["rating": 5, "body": "图", "imageIds": ["i_nope"]], as: world.user)
            let notMine = try await world.post(
                ["rating": 5, "body": "图", "imageIds": [mine[0], theirs]], as: world.user)
            let twice = try await world.post(
                ["rating": 5, "body": "图", "imageIds": [mine[0], mine[0]]], as: world.user)
            let wrongType = try await world.post(["rating": 5, "body": "图", "imageIds": "i_x"], as: world.user)
            // validate
            #expect(nine.status == .created)
            #expect((try nine.json()["imageUrls"] as? [String])?.count == 9)
            for response in [ten, unknown, notMine, twice] {
                #expect(response.status == .badRequest)
                #expect(response.problemCode == "invalid_images")
            }
            #expect(wrongType.problemCode == "invalid_body")
            // Refused posts leave nothing behind.
            #expect(try await app.database.query("SELECT count(*)::int FROM comments")[0].decode(Int.self) == 1)
        }
    }

    @Test func unknownOrArchivedStoresAreNotFound() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let unknown = try await world.post(["rating": 5, "body": "好"], as: world.user, storeID: "s_missing")
            try await CommentFixture.archive(app, storeID: world.storeID)
            let archived = try await world.post(["rating": 5, "body": "好"], as: world.user)
            let notice = try await world.post(["body": "营业"], as: world.manager)
            for response in [unknown, archived, notice] {
                #expect(response.status == .notFound)
                #expect(response.problemCode == "store_not_found")
            }
        }
    }

    @Test func badJSONIsInvalidBody() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let response = try await client.sendRaw(
                .post, "/v1/stores/\(world.storeID)/comments", body: "{\"rating\": 5, ", token: world.user.token)
            #expect(response.status == .badRequest)
            #expect(response.problemCode == "invalid_body")
        }
    }
}
