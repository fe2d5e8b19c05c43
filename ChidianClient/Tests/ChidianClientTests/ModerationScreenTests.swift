import Foundation
import Testing

@testable import ChidianClient

/// 管理员: the report queue, hiding a review and restoring it, the log.
@Suite(Demo.needsServer) struct ModerationScreenTests {
    @Test func anAdminHidesAReportedReviewAndRestoresIt() async throws {
        // A store of the test's own, with one review: no other suite lists or opens its reviews while it is hidden.
        let manager = try await Demo.signedIn("Manager4")
        let category = try #require(try await manager.categories().first)
        let store = try await manager.openStore(
            name: Demo.uniqueName("被举报"), categoryId: category.id, address: "海上", location: Demo.spot())
        let author = try Demo.client()
        try await author.register(name: Demo.uniqueName("author"), password: "a long password")
        let review = try await author.postReview(store: store.id, rating: 1, body: "加微信领优惠券，返现十元")
        let reporter = try Demo.client()
        try await reporter.register(name: Demo.uniqueName("reporter"), password: "a long password")
        try await reporter.report(comment: review.id, reason: .spam, note: "广告")
        let admin = try await Demo.signedIn("Admin", "chidian-admin")
        // MUT
        let queued = try await admin.moderationQueue(pageSize: 50).first(1000)
        let hidden = try await admin.moderate(comment: review.id, .hide, note: "广告")
        let whileHidden = try await Demo.refusal { try await Demo.client().comment(review.id, track: false) }
        let closed = try await admin.moderationQueue(status: .closed, pageSize: 50).first(1000)
        let restored = try await admin.moderate(comment: review.id, .restore)
        let log = try await admin.moderationLog(pageSize: 50).first(1000)
        // validate
        let item = try #require(queued.first { $0.comment.id == review.id })
        #expect(item.status == .open && !item.hidden && item.reportCount == 1)
        #expect(item.reports.map(\.reason) == [.spam] && item.reports.first?.note == "广告")
        #expect(hidden.hidden && hidden.status == .closed && hidden.comment.id == review.id)
        #expect(whileHidden.code == .commentNotFound && whileHidden.status == 404)
        #expect(closed.contains { $0.comment.id == review.id })
        #expect(!restored.hidden)
        #expect(try await Demo.client().comment(review.id, track: false).body == review.body)
        let actions = log.filter { $0.commentId == review.id }.map(\.action)
        #expect(actions.contains(.hide) && actions.contains(.restore))
        #expect(log.filter { $0.commentId == review.id }.allSatisfy { $0.adminId == "u040" })
    }

    @Test func onlyAdminsModerate() async throws {
        let user = try await Demo.signedIn("User1")
        // MUT
        let hide = try await Demo.refusal { try await user.moderate(comment: "c003", .hide) }
        let queue = try await Demo.refusal { try await user.moderationQueue().first(1) }
        let anonymous = try await Demo.refusal { try await Demo.client().moderationLog().first(1) }
        // validate
        #expect(hide.code == .adminRequired && hide.status == 403)
        #expect(queue.code == .adminRequired && queue.status == 403)
        #expect(anonymous.code == .loginRequired && anonymous.status == 401)
    }
}
