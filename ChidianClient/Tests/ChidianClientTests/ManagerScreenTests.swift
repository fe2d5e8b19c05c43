import Foundation
import Testing

@testable import ChidianClient

/// 商家: opening a store, posting a notice on it, buying promotion, answering a review.
@Suite(Demo.needsServer) struct ManagerScreenTests {
    @Test func aManagerOpensAStorePostsANoticeAndBuysPromotion() async throws {
        let manager = try await Demo.signedIn("Manager4")
        let category = try #require(try await manager.categories().first)
        let photo = try await manager.uploadImage(try Demo.png("s002_1"), type: .png)
        let name = Demo.uniqueName("新店")
        // MUT
        let store = try await manager.openStore(
            name: name, categoryId: category.id, description: "刚开业", address: "成都市", imageIds: [photo.id])
        let notice = try await manager.postNotice(store: store.id, body: "开业酬宾，全场八折")
        let promotion = try await manager.buyPromotion(store: store.id, amount: 500)
        // validate
        #expect(store.name == name && store.managerName == "Manager4" && store.category.id == category.id)
        #expect(store.imageUrls == [photo.url] && store.adSpend == 0 && !store.promoted)
        #expect(notice.kind == .notice && notice.rating == nil && notice.storeId == store.id)
        #expect(promotion.storeId == store.id && promotion.amount == 500 && promotion.adSpend == 500)
        let promoted = try await manager.store(store.id)
        #expect(promoted.promoted && promoted.adSpend == 500)
        #expect(try await manager.myStores().contains { $0.id == store.id })
        #expect(try await Demo.client().dailyPromotions(limit: 100).contains { $0.id == store.id })

        let renamed = try await manager.update(store, description: "装修完毕")
        let stale = try await Demo.refusal { try await manager.update(store, address: "重庆市") }
        #expect(renamed.description == "装修完毕" && stale.code == .versionConflict && stale.status == 412)
    }

    @Test func managerRefusals() async throws {
        let manager = try await Demo.signedIn("Manager4")
        let amount = try await Demo.refusal { try await manager.buyPromotion(store: "s001", amount: 0) }
        #expect(amount.code == .invalidAmount && amount.status == 400)
        let notTheirs = try await Demo.refusal { try await manager.buyPromotion(store: "s036", amount: 10) }
        #expect(notTheirs.code == .notStoreOwner && notTheirs.status == 403)
        let elsewhere = try await Demo.refusal { try await manager.postNotice(store: "s036", body: "通知") }
        #expect(elsewhere.code == .notStoreOwner && elsewhere.status == 403)
        let user = try await Demo.signedIn("User1")
        let notManager = try await Demo.refusal { try await user.openStore(name: "x", categoryId: "x") }
        #expect(notManager.code == .managerRequired && notManager.status == 403)
    }

    @Test func aManagerAnswersAReviewOfTheirStore() async throws {
        let user = try Demo.client()
        try await user.register(name: Demo.uniqueName("diner"), password: "a long password")
        let review = try await user.postReview(store: "s001", rating: 3, body: "锅底偏咸")
        let manager = try await Demo.signedIn("Manager4")
        // MUT
        let answered = try await manager.reply(to: review.id, body: "感谢反馈，已调整")
        // validate
        #expect(answered.reply?.body == "感谢反馈，已调整" && answered.reply?.author.name == "Manager4")
        #expect(try await user.comment(review.id, track: false).reply?.body == "感谢反馈，已调整")
    }
}
