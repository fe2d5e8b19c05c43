import Foundation
import Testing

@testable import ChidianClient

/// 未推荐的评价: an admin judges a review not recommended; the store counts it apart and lists it apart, the
/// trust queue holds it, and judging it recommended again puts it back (issue #48).
@Suite(Demo.needsServer) struct TrustScreenTests {
    @Test func anAdminJudgesAReviewNotRecommendedAndBack() async throws {
        // A store of the test's own: no other suite reads its figures meanwhile.
        let manager = try await Demo.signedIn("Manager4")
        let category = try #require(try await manager.categories().first)
        let store = try await manager.openStore(
            name: Demo.uniqueName("刷单"), categoryId: category.id, address: "海上", location: Demo.spot())
        let author = try Demo.client()
        try await author.register(name: Demo.uniqueName("author"), password: "a long password")
        let review = try await author.postReview(store: store.id, rating: 5, body: "五星好评返现")
        let admin = try await Demo.signedIn("Admin", "chidian-admin")
        let visitor = try Demo.client()
        // MUT
        let judged = try await admin.setRecommended(comment: review.id, false, note: "返现")
        let counted = try await visitor.store(store.id)
        let shown = try await visitor.comments(ofStore: store.id).first(50)
        let apart = try await visitor.comments(ofStore: store.id, recommended: false).first(50)
        let queue = try await admin.trustQueue(pageSize: 50).first(1000)
        let log = try await admin.moderationLog(pageSize: 50).first(1000)
        let back = try await admin.setRecommended(comment: review.id, true)
        let recounted = try await visitor.store(store.id)
        // validate
        #expect(!judged.recommended && back.recommended)
        #expect(counted.notRecommendedCount == 1 && counted.rating.count == 0)
        #expect(!shown.contains { $0.id == review.id })
        #expect(apart.map(\.id) == [review.id])
        #expect(queue.contains { $0.comment.id == review.id })
        #expect(log.contains { $0.commentId == review.id && $0.action == .notRecommend && $0.note == "返现" })
        #expect(recounted.notRecommendedCount == 0 && recounted.rating.count == 1)
    }

    @Test func onlyAdminsJudge() async throws {
        let user = try await Demo.signedIn("User1")
        // MUT
        let judge = try await Demo.refusal { try await user.setRecommended(comment: "c003", false) }
        let queue = try await Demo.refusal { try await user.trustQueue().first(1) }
        // validate
        #expect(judge.code == .adminRequired && judge.status == 403)
        #expect(queue.code == .adminRequired && queue.status == 403)
    }
}
