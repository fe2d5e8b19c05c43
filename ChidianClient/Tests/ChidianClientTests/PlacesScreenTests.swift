import Foundation
import Testing

@testable import ChidianClient

/// 附近 and 今天吃点啥: stores near a point, open now, and the pick with its reasons and 换一个.
@Suite(Demo.needsServer) struct PlacesScreenTests {
    /// 春熙路, 成都: the demo stores s001, s002 and s006 are a few hundred metres away, s004 about 2.7 km.
    static let chunxiRoad = Store.Location(lat: 30.6575, lng: 104.0805)

    @Test func storesNearMeNearestFirst() async throws {
        let client = try Demo.client()
        // MUT
        let near = try await client.stores(sort: .distance, near: Self.chunxiRoad, radius: 3000, pageSize: 3).first(
            100)
        let found = try await client.search("火锅", near: Self.chunxiRoad, radius: 3000).first(20)
        // validate
        let ids = Set(near.map(\.id))
        #expect(ids.isSuperset(of: ["s001", "s002", "s006", "s004"]))
        #expect(!ids.contains("s007") && !ids.contains("s024"), "广州 and 重庆 are not near 成都")
        let distances = near.compactMap(\.distanceMeters)
        #expect(distances.count == near.count && distances == distances.sorted())
        #expect(distances.allSatisfy { $0 <= 3000 })
        #expect(near.allSatisfy { $0.location != nil && $0.timeZone == "Asia/Shanghai" && $0.hours != nil })
        #expect(found.contains { $0.store.id == "s001" })
        #expect(found.allSatisfy { ($0.store.distanceMeters ?? .max) <= 3000 })
        let anywhere = try await client.stores(pageSize: 100).first(100)
        #expect(anywhere.allSatisfy { $0.distanceMeters == nil }, "distanceMeters comes only with near")
        let radius = try await Demo.refusal { try await client.stores(near: Self.chunxiRoad, radius: 0).first(1) }
        #expect(radius.code == .invalidRadius && radius.status == 400)
    }

    @Test func openNowListsOnlyOpenStores() async throws {
        let client = try Demo.client()
        // MUT
        let open = try await client.stores(openNow: true, pageSize: 50).first(100)
        // validate: which demo stores are open depends on the hour; every one listed says so
        #expect(open.allSatisfy { $0.openNow == true && $0.opensAt == nil })
    }

    /// The pick answers only stores open now, so the test opens two of its own, open round the clock, at a spot in
    /// the South Atlantic no other test uses: what may be picked depends neither on the hour nor on other suites.
    @Test func thePickAnswersAStoreWithReasonsAndSkipsTheOnesSeen() async throws {
        let manager = try await Demo.signedIn("Manager4")
        let category = try #require(try await manager.categories().first)
        let spot = Demo.spot()
        var opened: Set<String> = []
        for name in ["一号店", "二号店"] {
            let store = try await manager.openStore(
                name: Demo.uniqueName(name), categoryId: category.id, address: "海上", location: spot,
                hours: Demo.roundTheClock)
            opened.insert(store.id)
        }
        let diner = try Demo.client()
        // MUT
        let pick = try await diner.pick(near: spot, radius: 500)
        let next = try await diner.pick(near: spot, radius: 500, skip: [pick.store.id])
        // validate
        #expect(opened.contains(pick.store.id) && !pick.reasons.isEmpty)
        #expect(pick.reasons.allSatisfy { !$0.text.isEmpty })
        #expect(pick.store.openNow == true && (pick.store.distanceMeters ?? .max) <= 500)
        #expect(pick.alternatives.allSatisfy { opened.contains($0.id) && $0.id != pick.store.id })
        #expect(opened.contains(next.store.id) && next.store.id != pick.store.id)
        let allSeen = try await Demo.refusal { try await diner.pick(near: spot, radius: 500, skip: Array(opened)) }
        #expect(allSeen.code == .nothingToPick && allSeen.status == 404)
        // Point Nemo, the ocean's farthest point from land: nothing within a metre.
        let nowhere = try await Demo.refusal {
            try await diner.pick(near: .init(lat: -48.8767, lng: -123.3933), radius: 1)
        }
        #expect(nowhere.code == .nothingToPick && nowhere.status == 404)
        let bad = try await Demo.refusal { try await diner.pick(near: spot, radius: 60_000) }
        #expect(bad.code == .invalidRadius && bad.status == 400)
    }

    @Test func popularTimesAreAWeekOfSharesOrNothingYet() async throws {
        let client = try Demo.client()
        // MUT
        let times = try await client.popularTimes(ofStore: "s001")
        let missing = try await Demo.refusal { try await client.popularTimes(ofStore: "s999999") }
        // validate: the demo server's views of s001 are the other suites' (few, or none): nothing said below 200,
        // else every weekday's 24 hours with the busiest at 100
        #expect(times.timeZone == "Asia/Shanghai")
        if times.days.isEmpty {
            #expect(times.now == nil)
        } else {
            #expect(times.days.map(\.day) == Array(1...7))
            #expect(times.days.allSatisfy { $0.hours.count == 24 && $0.hours.allSatisfy { (0...100).contains($0) } })
            #expect(times.days.flatMap(\.hours).max() == 100)
            #expect(times.now != nil)
        }
        #expect(missing.code == .storeNotFound && missing.status == 404)
    }
}

extension Demo {
    /// A random point in the South Atlantic, far from every demo store and from other tests' points.
    static func spot() -> Store.Location {
        .init(
            lat: -30 - Double(Int.random(in: 0..<100_000)) / 10_000,
            lng: -20 - Double(Int.random(in: 0..<100_000)) / 10_000)
    }

    /// Open every day, all day (equal open and close are 24 hours).
    static let roundTheClock = (1...7).map { Store.Hours(day: $0, open: "00:00", close: "00:00") }

    /// Whether two coordinates are the same point (the server keeps degrees as doubles; allow for rounding).
    static func same(_ a: Store.Location?, _ b: Store.Location) -> Bool {
        guard let a else { return false }
        return abs(a.lat - b.lat) < 1e-6 && abs(a.lng - b.lng) < 1e-6
    }
}
