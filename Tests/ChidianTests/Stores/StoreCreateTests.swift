import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct StoreCreateTests {
    @Test func createAnswersTheFullStoreWithETag() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let first = try await StoreFixture.image(app, uploaderID: manager.id)
            let second = try await StoreFixture.image(app, uploaderID: manager.id)
            // MUT
            let response = try await client.send(
                .post, "/v1/stores",
                body: [
                    "name": "  小龙坎 ", "categoryId": category, "description": "麻辣\n鲜香", "address": " 成都 ",
                    "imageIds": [second, first],
                ], token: manager.token)
            // validate
            #expect(response.status == .created)
            #expect(StoreFixture.etag(response) == "\"1\"")
            let store = try response.json()
            #expect(
                Set(store.keys) == [
                    "id", "name", "category", "description", "address", "managerId", "managerName", "imageUrls",
                    "rating", "scores", "pricePerPerson", "dishes", "notRecommendedCount",
                    "favoriteCount", "favorited", "promoted", "createdAt", "updatedAt", "version", "adSpend",
                    "location", "hours", "timeZone", "openNow", "closesAt", "opensAt", "couponCount",
                ])
            #expect((store["id"] as? String)?.hasPrefix("s_") == true)
            #expect(store["name"] as? String == "小龙坎")
            #expect(store["description"] as? String == "麻辣\n鲜香")
            #expect(store["address"] as? String == "成都")
            #expect(store["category"] as? [String: String] == ["id": category, "name": "火锅"])
            #expect(store["managerId"] as? String == manager.id)
            #expect(store["managerName"] as? String == "Boss")
            #expect(store["imageUrls"] as? [String] == ["/v1/images/\(second)", "/v1/images/\(first)"])
            let rating = try #require(store["rating"] as? [String: Any])
            #expect(rating["average"] is NSNull)
            #expect(rating["count"] as? Int == 0)
            #expect(rating["score"] as? Double == 3.5)
            #expect(store["favoriteCount"] as? Int == 0)
            #expect(store["favorited"] as? Bool == false)
            #expect(store["promoted"] as? Bool == false)
            #expect(store["adSpend"] as? Int == 0)
            #expect(store["version"] as? Int == 1)
            #expect((store["createdAt"] as? String)?.hasSuffix("Z") == true)
        }
    }

    @Test func onlyManagersCreate() async throws {
        try await TestApp.run { client, app in
            // setup
            let category = try await StoreFixture.category(app, "烧烤")
            let user = try await client.register("Eater")
            let admin = try await app.admin(client)
            let body: [String: Any] = ["name": "串串", "categoryId": category]
            // MUT
            let nobody = try await client.send(.post, "/v1/stores", body: body)
            let visitor = try await client.send(.post, "/v1/stores", body: body, headers: StoreFixture.visitor())
            let asUser = try await client.send(.post, "/v1/stores", body: body, token: user.token)
            let asAdmin = try await client.send(.post, "/v1/stores", body: body, token: admin.token)
            // validate
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            #expect(visitor.status == .unauthorized)
            #expect(visitor.problemCode == "login_required")
            #expect(asUser.status == .forbidden)
            #expect(asUser.problemCode == "manager_required")
            #expect(asAdmin.status == .forbidden)
            #expect(asAdmin.problemCode == "manager_required")
            #expect(try await app.database.query("SELECT 1 FROM stores").isEmpty)
        }
    }

    @Test func createValidatesEveryField() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let other = try await client.register("Other", role: "manager")
            let category = try await StoreFixture.category(app, "面馆")
            let mine = try await StoreFixture.image(app, uploaderID: manager.id)
            let theirs = try await StoreFixture.image(app, uploaderID: other.id)
            let cases: [([String: Any], String)] = [
                (["name": "   ", "categoryId": category], "name_required"),
                (["categoryId": category], "name_required"),
                (["name": String(repeating: "a", count: 65), "categoryId": category], "invalid_name"),
                (["name": "bad\u{7}name", "categoryId": category], "invalid_name"),
                (["name": "two\nlines", "categoryId": category], "invalid_name"),
                (
                    ["name": "Noodles", "categoryId": category, "description": String(repeating: "面", count: 2001)],
                    "invalid_description"
                ),
                (["name": "Noodles", "categoryId": category, "description": "nul\u{0}"], "invalid_description"),
                (
                    ["name": "Noodles", "categoryId": category, "address": String(repeating: "路", count: 201)],
                    "invalid_address"
                ),
                (
                    ["name": "Noodles", "categoryId": category, "imageIds": Array(repeating: mine, count: 10)],
                    "invalid_images"
                ),
                (["name": "Noodles", "categoryId": category, "imageIds": [mine, theirs]], "invalid_images"),
                (["name": "Noodles", "categoryId": category, "imageIds": ["i_doesnotexist"]], "invalid_images"),
                (["name": "Noodles", "categoryId": "c_nope"], "unknown_category"),
                (["name": "Noodles"], "unknown_category"),
                (["name": 5, "categoryId": category], "invalid_body"),
                (["name": "Noodles", "categoryId": category, "imageIds": "i_x"], "invalid_body"),
            ]
            for (body, code) in cases {
                // MUT
                let response = try await client.send(.post, "/v1/stores", body: body, token: manager.token)
                // validate
                #expect(response.status == .badRequest, "\(code): \(response.text)")
                #expect(response.problemCode == code, "\(body)")
            }
            #expect(try await app.database.query("SELECT 1 FROM stores").isEmpty)
        }
    }

    @Test func limitsCountCharactersNotBytes() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "面馆")
            let images = try await StoreFixture.images(app, uploaderID: manager.id, count: 9)
            // MUT
            let store = try await StoreFixture.store(
                client, manager, name: String(repeating: "👨‍👩‍👧", count: 64), categoryID: category,
                extra: [
                    "description": String(repeating: "面", count: 2000), "address": String(repeating: "路", count: 200),
                    "imageIds": images,
                ])
            // validate
            #expect(store.name.count == 64)
            #expect(store.imageUrls == images.map { "/v1/images/\($0)" })
        }
    }
}
