import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A cell of the grid as a walk reads it: its open table against PostgreSQL's `@>` on the same multiranges, kept per
/// minute, and its score columns kept only for the cell the grid still holds.
@Suite struct PlaceCellTests {
    static let schedules = [
        "{}", "{[0,10080)}", "{[5,6)}", "{[0,360),[540,1260),[1980,2700),[10020,10080)}",
        "{[100,200),[300,400),[500,600),[700,800),[900,1000),[1100,1200),[1300,1400),[9000,10079)}",
    ]

    static func cell(_ schedules: [String], zones: [String] = ["Asia/Shanghai"]) -> PlaceCell {
        PlaceCell(
            stores: schedules.indices.map { index in
                PlaceCell.Store(
                    id: "s\(index)", lat: 30.659, lng: 104.081, categoryID: "c", zone: zones[index % zones.count],
                    open: PlaceCells.ranges(schedules[index]))
            })
    }

    @Test func theOpenTableIsPostgreSQLsContainment() async throws {
        try await TestApp.run { _, app in
            // setup: one store per schedule, so the table's index is the schedule's
            let cell = Self.cell(Self.schedules)
            for (index, schedule) in Self.schedules.enumerated() {
                let expected = try await app.database.query(
                    "SELECT m::int, \(schedule)::int4multirange @> m FROM generate_series(0, 10079) AS m ORDER BY m"
                ).map { try $0.decode((Int, Bool).self) }
                // MUT
                let tables = cell.openTable(atWeekMinutes: expected.map(\.0))
                // validate: minute by minute
                let width = cell.schedules.count
                let slot = cell.schedules.firstIndex(of: PlaceCells.ranges(schedule))!
                let found = expected.indices.map { tables[$0 * width + slot] }
                #expect(found == expected.map(\.1), "\(schedule) (store \(index))")
            }
        }
    }

    @Test func aDatesTableIsKeptForItsMinuteOnly() {
        // setup: two zones, so each minute's table has a row per zone
        let cell = Self.cell(Self.schedules, zones: ["Asia/Shanghai", "America/New_York"])
        let start = Date(timeIntervalSince1970: 1_764_000_000)
        func minutes(_ date: Date) -> (String) -> Int {
            { WeeklyHours.weekMinute(of: date, in: StoreTimeZone.zone($0)) }
        }
        for offset: TimeInterval in [0, 59, 60, 3_600, 43_200, 86_399, 7 * 86_400 + 30] {
            let date = start.addingTimeInterval(offset)
            // MUT
            let kept = cell.openTable(at: date, weekMinute: minutes(date))
            // validate
            #expect(kept == cell.openTable(atWeekMinutes: cell.zoneNames.map(minutes(date))), "\(offset) s")
        }
    }

    @Test func scoreColumnsAreKeptOnlyForTheCurrentCell() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            // Served however long a loaded machine keeps the listener's heartbeat waiting.
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: stores around one point, their cell read, then told that it changed
            let caching = try #require(app.services.caching)
            let places = PlaceCells(database: app.database, cache: caching.places)
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [category, category], count: 20)
            await app.settle()
            let key = PlaceGrid.cell(lat: 30.659, lng: 104.081)
            let old = try #require(try await places.cells([key])?.first)
            #expect(old.count > 0)
            caching.places.invalidate("g:\(key)")
            // MUT: columns read for the cell as it was
            let stale = try #require(try await places.scores(of: [old], keys: [key])?.first)
            let scored = try #require(try await places.scoredCells([key])?.first)
            // validate: the columns answered for the old cell, but the walk's look reads the grid's cell again
            #expect(stale.cell === old)
            #expect(scored.cell !== old)
            #expect(scored.cell.ids == old.ids)
            // and a current cell's columns are kept: the next look is the same pair
            let again = try #require(try await places.scoredCells([key])?.first)
            #expect(again === scored)
        }
    }
}
