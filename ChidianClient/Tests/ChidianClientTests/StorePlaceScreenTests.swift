import Foundation
import Testing

@testable import ChidianClient

/// 商家, continued: a store's place, hours and zone, its promotion history, answers taken back, and archiving.
@Suite(Demo.needsServer) struct StorePlaceScreenTests {
    @Test func aManagerPlacesAStoreThenArchivesIt() async throws {
        let manager = try await Demo.signedIn("Manager4")
        let categories = try await manager.categories()
        let category = try #require(categories.first)
        let other = try #require(categories.last)
        let spot = Demo.spot()
        let lunchAndLate = [
            Store.Hours(day: 1, open: "11:00", close: "14:00"), Store.Hours(day: 1, open: "17:00", close: "02:00"),
        ]
        // MUT
        let store = try await manager.openStore(
            name: Demo.uniqueName("夜宵"), categoryId: category.id, address: "海上", location: spot,
            hours: lunchAndLate, timeZone: "Asia/Tokyo")
        let moved = Store.Location(lat: spot.lat + 0.001, lng: spot.lng)
        let updated = try await manager.update(
            store, categoryId: other.id, location: moved, hours: Demo.roundTheClock)
        _ = try await manager.buyPromotion(store: store.id, amount: 30)
        let promotions = try await manager.promotions(ofStore: store.id).first(10)
        let near = try await Demo.client().stores(near: moved, radius: 1000).first(10)
        let stale = try await Demo.refusal { try await manager.archive(store) }
        try await manager.archive(try await manager.store(store.id))
        // validate
        #expect(Demo.same(store.location, spot) && store.hours == lunchAndLate && store.timeZone == "Asia/Tokyo")
        #expect(store.openNow != nil)
        #expect(Demo.same(updated.location, moved) && updated.hours == Demo.roundTheClock)
        #expect(updated.category.id == other.id)
        #expect(updated.openNow == true && updated.closesAt == nil && updated.timeZone == "Asia/Tokyo")
        #expect(promotions.map(\.amount) == [30] && promotions.allSatisfy { $0.storeId == store.id })
        #expect(near.map(\.id) == [store.id] && (near.first?.distanceMeters ?? .max) <= 1)
        #expect(stale.code == .versionConflict && stale.status == 412)
        let gone = try await Demo.refusal { try await Demo.client().store(store.id) }
        #expect(gone.code == .storeNotFound && gone.status == 404)
        #expect(try await Demo.client().stores(near: moved, radius: 1000).first(10).isEmpty)
        #expect(try await manager.myStores(pageSize: 100).contains { $0.id == store.id } == false)
    }

    @Test func archiveAndPromotionsAreTheManagersOnly() async throws {
        let manager = try await Demo.signedIn("Manager4")
        let other = try await Demo.signedIn("Manager1")
        // s004: no other suite writes to it.
        let store = try await manager.store("s004")
        // MUT
        let archive = try await Demo.refusal { try await other.archive(store) }
        let history = try await Demo.refusal { try await other.promotions(ofStore: "s004").first(1) }
        // validate
        #expect(archive.code == .notStoreOwner && archive.status == 403)
        #expect(history.code == .notStoreOwner && history.status == 403)
        #expect(try await Demo.client().store("s004").id == "s004")
    }

    @Test func aManagerTakesAnAnswerBack() async throws {
        let user = try Demo.client()
        try await user.register(name: Demo.uniqueName("diner"), password: "a long password")
        let review = try await user.postReview(store: "s033", rating: 4, body: "小龙虾很新鲜")
        let manager = try await Demo.signedIn("Manager4")
        _ = try await manager.reply(to: review.id, body: "谢谢光临")
        // MUT
        try await manager.deleteReply(to: review.id)
        // validate
        #expect(try await user.comment(review.id, track: false).reply == nil)
        let again = try await Demo.refusal { try await manager.deleteReply(to: review.id) }
        #expect(again.code == .replyNotFound && again.status == 404)
        let notTheirs = try await Demo.refusal { try await Demo.signedIn("Manager1").deleteReply(to: review.id) }
        #expect(notTheirs.code == .notStoreOwner && notTheirs.status == 403)
    }
}
