import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 举报 and 管理后台: a user reports, an admin hides it from every page and restores it, archives a store and
/// manages categories, by the API's and the CLI's rules.
@Suite struct WebAdminTests {
    static func signedInAdmin(_ client: any TestClientProtocol, _ app: TestApp) async throws -> WebBrowser {
        _ = try await app.admin(client)
        let browser = WebBrowser(client)
        _ = try await browser.get("/login")
        _ = try await browser.post("/login", ["name": "Admin", "password": "admin password"])
        return browser
    }

    @Test func aReportedReviewIsHiddenEverywhereThenRestored() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(1, "骗人的店")["id"] as! String
            _ = try await client.register("举报人")
            let reporter = try await WebWritingTests.signedIn(client, "举报人")
            let author = try await WebWritingTests.signedIn(client, world.user.name)
            #expect(
                !(try await author.get("/comments/\(review)").text.contains("action=\"/comments/\(review)/report\"")))
            // MUT: report it, twice
            let reported = try await reporter.post("/comments/\(review)/report", ["reason": "fake", "note": "刷的"])
            let again = try await reporter.post("/comments/\(review)/report", ["reason": "spam"])
            // validate
            #expect(reported.headers[.location] == "/comments/\(review)?reported=1")
            #expect(again.status == .conflict)
            #expect(again.text.contains("你已经举报过这条评论"))
            let admin = try await Self.signedInAdmin(client, app)
            let queue = try await admin.get("/admin").text
            #expect(queue.contains("骗人的店"))
            #expect(queue.contains("虚假评价：刷的"))
            #expect(try await reporter.get("/admin").status == .forbidden)
            // hide: gone from the store page and the review page, logged with the admin
            let hidden = try await admin.post("/admin/comments/\(review)", ["action": "hide", "note": "刷单"])
            #expect(hidden.headers[.location] == "/admin?saved=1")
            #expect(!(try await WebBrowser(client).get("/stores/\(world.storeID)").text.contains("骗人的店")))
            #expect(try await WebBrowser(client).get("/comments/\(review)").status == .notFound)
            let log = try await app.database.query(
                "SELECT action, admin_id IS NOT NULL FROM moderation_log WHERE comment_id = \(review)")
            #expect(try log.map { try $0.decodeAll((String, Bool).self) }.first! == ("hide", true))
            // restore from the closed list
            #expect(try await admin.get("/admin?status=closed").text.contains("骗人的店"))
            _ = try await admin.post("/admin/comments/\(review)", ["action": "restore"])
            #expect(try await WebBrowser(client).get("/stores/\(world.storeID)").text.contains("骗人的店"))
            // an unknown action is the API's 400
            let bogus = try await admin.post("/admin/comments/\(review)", ["action": "delete"])
            #expect(bogus.status == .badRequest)
        }
    }

    @Test func storesAreArchivedAndRestoredAndCategoriesManaged() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await Self.signedInAdmin(client, app)
            #expect(
                try await admin.get("/stores/\(world.storeID)").text.contains("/admin/stores/\(world.storeID)/archive"))
            // MUT
            let archived = try await admin.post("/admin/stores/\(world.storeID)/archive")
            // validate
            #expect(archived.headers[.location] == "/admin?saved=1")
            #expect(try await WebBrowser(client).get("/stores/\(world.storeID)").status == .notFound)
            #expect(try await admin.get("/admin").text.contains("/admin/stores/\(world.storeID)/restore"))
            _ = try await admin.post("/admin/stores/\(world.storeID)/restore")
            #expect(try await WebBrowser(client).get("/stores/\(world.storeID)").status == .ok)
            // categories
            #expect(try await admin.post("/admin/categories", ["name": "烧烤"]).status == .seeOther)
            let taken = try await admin.post("/admin/categories", ["name": "火锅"])
            #expect(taken.status == .conflict)
            #expect(taken.text.contains("类型名已存在"))
            _ = try await admin.post("/admin/categories/\(world.categoryID)", ["name": "重庆火锅"])
            let names = try await client.send(.get, "/v1/categories").json()["items"] as? [[String: Any]]
            #expect(Set(names?.compactMap { $0["name"] as? String } ?? []) == ["烧烤", "重庆火锅"])
            // nobody else may
            let user = try await WebWritingTests.signedIn(client, world.user.name)
            #expect(try await user.post("/admin/stores/\(world.storeID)/archive").status == .forbidden)
            #expect(try await user.post("/admin/categories", ["name": "偷加"]).status == .forbidden)
        }
    }
}
