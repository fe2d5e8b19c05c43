import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// `chidian generate` places stores in real cities with the hours their descriptions state.
@Suite struct GeneratedPlacesTests {
    @Test func storesAreNearACityCentreAndOpenWhenTheirDescriptionSays() throws {
        // MUT
        let generated = try GeneratedSeed.make(stores: 300, users: 50, comments: 100)
        defer { generated.remove() }
        // validate
        let centres = GeneratedPlaces.centres.values.map { GeoPoint(lat: $0.lat, lng: $0.lng) }
        for store in generated.stores {
            let location = try #require(store.location, "\(store.id)")
            let point = GeoPoint(lat: location.lat, lng: location.lng)
            #expect(centres.contains { $0.distance(to: point) <= 8_100 }, "\(store.id) \(point)")
            let hours = try #require(store.hours, "\(store.id)")
            let schedule = try WeeklyHours.parse(
                .array(
                    hours.map {
                        .object(["day": .integer($0.day), "open": .string($0.open), "close": .string($0.close)])
                    }))
            #expect(schedule == GeneratedPlaces.stated(in: store.description ?? ""), "\(store.id)")
            #expect(Set(schedule.ranges.map(\.day)) == Set(1...7))
        }
        #expect(Set(generated.stores.compactMap { $0.address?.prefix(2) }).count >= 6, "several cities")
    }
}
