import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 管理后台's verdicts (issue #48): an admin judges a review from its page or from the queue of suspicious reviews,
/// as `PUT /v1/comments/{id}/recommended` does; nobody else can.
@Suite struct WebTrustAdminTests {
    @Test func anAdminJudgesAReviewFromItsPageAndRestoresItFromTheQueue() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try RecommendedFixture.id(try await world.review(1, "可疑的好评"))
            let admin = try await WebAdminTests.signedInAdmin(client, app)
            let page = try await admin.get("/comments/\(review)").text
            #expect(page.contains("action=\"/admin/comments/\(review)/recommended\"") && page.contains("判为不推荐"))
            #expect(try await admin.get("/admin").text.contains("没有可疑的评价"))
            // MUT: not recommended, from the review's page
            let judged = try await admin.post(
                "/admin/comments/\(review)/recommended", ["recommended": "false", "back": "comment", "note": "同一地址"])
            // validate: back on the page, the store counts it apart, the queue lists it, the log holds it
            #expect(judged.headers[.location] == "/comments/\(review)?judged=1")
            #expect(try await admin.get("/comments/\(review)?judged=1").text.contains("恢复推荐"))
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 1)
            let queue = try await admin.get("/admin").text
            #expect(queue.contains("可疑的好评") && queue.contains("恢复推荐"))
            let logged = try await app.database.query(
                "SELECT action, note FROM moderation_log WHERE comment_id = \(review) ORDER BY id")
            #expect(try logged.map { try $0.decode((String, String?).self) }.map(\.0) == ["not_recommend"])
            // MUT: recommended again, from the queue
            let restored = try await admin.post("/admin/comments/\(review)/recommended", ["recommended": "true"])
            #expect(restored.headers[.location] == "/admin?saved=1#trust")
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 0)
        }
    }

    @Test func onlyAdminsJudgeAndOnlyTrueOrFalse() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try RecommendedFixture.id(try await world.review(1, "普通的评价"))
            let author = try await WebWritingTests.signedIn(client, world.user.name)
            #expect(!(try await author.get("/comments/\(review)").text.contains("判为不推荐")))
            let refused = try await author.post("/admin/comments/\(review)/recommended", ["recommended": "false"])
            #expect(refused.status == .forbidden)
            let admin = try await WebAdminTests.signedInAdmin(client, app)
            let nonsense = try await admin.post("/admin/comments/\(review)/recommended", ["recommended": "maybe"])
            #expect(nonsense.status == .badRequest)
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 0)
        }
    }
}
