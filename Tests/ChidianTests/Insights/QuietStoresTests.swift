import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// The pick's `quiet` from a cell's quiet stores (`PopularTimesRepository.isQuiet`): the same verdict as each
/// store's own popular times, in its own zone, at the rounding's edge, and only for the cell's live stores.
@Suite struct QuietStoresTests {
    @Test func aCellsQuietStoresAreThoseWhosePopularTimesSayQuiet() async throws {
        let clock = PopularTimesTests.TestClock()  // Monday 2026-11-30 12:30 in Shanghai
        try await TestApp.run(clock: clock.now) { client, app in
            // setup: stores in one cell (30.64–30.66, 104.08–104.10), each with its counted hours
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            // (views at Monday 12:00, at the busiest other hour) on Monday 2026-11-23 in the store's zone
            let shapes: [(name: String, noon: Int, peak: Int, quiet: Bool)] = [
                ("share 10", 30, 300, true),
                ("share 100", 300, 0, false),
                ("share 39.5 rounds to 40", 79, 200, false),
                ("share 39", 78, 200, true),
                ("under 200 views", 0, 150, false),
                ("an empty hour", 0, 250, true),
            ]
            var expected: [String: Bool] = [:]
            for (index, shape) in shapes.enumerated() {
                let id = try await PickTests.store(
                    client, app, manager, name: shape.name, category: category, lat: 30.645 + 0.001 * Double(index),
                    lng: 104.085)
                try await app.database.query(
                    """
                    INSERT INTO store_hours (store_id, day, hour, views)
                    VALUES (\(id), '2026-11-23', 12, \(shape.noon)), (\(id), '2026-11-23', 19, \(shape.peak))
                    """)
                expected[id] = shape.quiet
            }
            // In Tokyo it is 13:30: quiet there at 13:00, though busy at noon.
            let tokyo = try await PickTests.store(
                client, app, manager, name: "Tokyo", category: category, lat: 30.652, lng: 104.09)
            try await app.database.query(
                """
                UPDATE stores SET time_zone = 'Asia/Tokyo' WHERE id = \(tokyo)
                """)
            try await app.database.query(
                """
                INSERT INTO store_hours (store_id, day, hour, views)
                VALUES (\(tokyo), '2026-11-23', 13, 30), (\(tokyo), '2026-11-23', 12, 300)
                """)
            expected[tokyo] = true
            // Busy at noon nine weeks ago only: outside the window, so quiet.
            let old = try await PickTests.store(
                client, app, manager, name: "old", category: category, lat: 30.653, lng: 104.09)
            try await app.database.query(
                """
                INSERT INTO store_hours (store_id, day, hour, views)
                VALUES (\(old), '2026-09-28', 12, 1000), (\(old), '2026-11-23', 19, 300), (\(old), '2026-11-23', 12, 30)
                """)
            expected[old] = true
            // Quiet, but in the next cell north, and an archived one: neither is the cell's.
            let north = try await PickTests.store(
                client, app, manager, name: "north", category: category, lat: 30.665, lng: 104.085)
            let closed = try await PickTests.store(
                client, app, manager, name: "closed", category: category, lat: 30.654, lng: 104.09)
            for id in [north, closed] {
                try await app.database.query(
                    """
                    INSERT INTO store_hours (store_id, day, hour, views)
                    VALUES (\(id), '2026-11-23', 19, 300), (\(id), '2026-11-23', 12, 30)
                    """)
            }
            let deleted = try await client.send(.delete, "/v1/stores/\(closed)", token: manager.token)
            #expect(deleted.status == .noContent || deleted.status == .ok)
            await app.settle()
            // MUT
            let popular = PopularTimesRepository(database: app.database, cache: app.services.caching?.reads)
            let now = clock.now()
            let cell = PlaceGrid.cell(lat: 30.645, lng: 104.085)
            let inCell = Set(
                try await app.database.run(PopularTimesRepository.QuietInCell(cell: cell, now: now)))
            // validate: the statement, the service, and each store's own popular times agree
            #expect(inCell == Set(expected.filter(\.value).keys))
            for (id, quiet) in expected {
                let zone = id == tokyo ? "Asia/Tokyo" : "Asia/Shanghai"
                let own = try await popular.popularTimes(storeID: id, timeZone: zone, at: now).level(at: now)
                #expect((own == .quiet) == quiet, "\(id): its own popular times")
                let location = GeoPoint(lat: 30.65, lng: 104.09)
                let served = try await popular.isQuiet(storeID: id, location: location, timeZone: zone, at: now)
                #expect(served == quiet, "\(id): isQuiet")
            }
            let northQuiet = try await popular.isQuiet(
                storeID: north, location: GeoPoint(lat: 30.665, lng: 104.085), timeZone: "Asia/Shanghai", at: now)
            #expect(northQuiet, "its own cell says quiet")
            #expect(!inCell.contains(north) && !inCell.contains(closed))
        }
    }
}
