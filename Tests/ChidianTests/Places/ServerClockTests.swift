import Foundation
import Testing

@testable import ChidianCore

/// `CLOCK_START` and `CLOCK_RATE` set the server's own clock, so benchmarks measure near me and the pick at noon
/// and at 04:00 in Shanghai whatever the hour (issue #45), and evaluations run days in minutes (issue #46).
@Suite struct ServerClockTests {
    @Test func aSetClockStartsWhereItIsSetAndRunsAtItsRate() {
        let origin = Date(timeIntervalSince1970: 1_000_000)
        let start = Date(timeIntervalSince1970: 2_000_000)
        // MUT
        let clock = ServerClock(start: start, rate: 60, origin: origin)
        // validate
        #expect(clock.reading(at: origin) == start)
        #expect(clock.reading(at: origin.addingTimeInterval(10)) == start.addingTimeInterval(600))
    }

    @Test func badSettingsAreNamedAndStopTheServer() throws {
        // MUT, validate
        #expect(try ServerClock.parse([:]).get() == nil)
        let noon = try #require(try ServerClock.parse(["CLOCK_START": "2026-11-30T12:00:00+08:00"]).get())
        #expect(noon.start == Date(timeIntervalSince1970: 1_796_011_200))
        #expect(noon.rate == 1)
        let fast = try ServerClock.parse(["CLOCK_START": "2026-11-30T04:00:00Z", "CLOCK_RATE": "3600"]).get()
        #expect(fast?.rate == 3600)
        for bad in [
            ["CLOCK_RATE": "2"], ["CLOCK_START": "noon"], ["CLOCK_START": "2026-11-30T12:00:00"],
            ["CLOCK_START": "2026-11-30T12:00:00Z", "CLOCK_RATE": "0"],
            ["CLOCK_START": "2026-11-30T12:00:00Z", "CLOCK_RATE": "fast"],
        ] {
            #expect(throws: ClockSettingError.self, "\(bad)") { try ServerClock.parse(bad).get() }
            #expect(throws: ConfigurationError.self, "\(bad)") { try AppConfiguration.fromEnvironment(bad) }
        }
    }

    @Test func nearMeAndThePickAnswerByTheServersClock() async throws {
        try await TestDatabase.withFresh { database, url in
            // setup: one store on Chunxi Road, open 10:00–22:00 every day in Shanghai
            let category = try await StoreAdmin(database: database).addCategory(name: "面").id
            let manager = try await ServerProcess(databaseURL: url)
            let token = try #require(
                try manager.request(
                    "POST", "/v1/auth/register",
                    body: ServerProcessTests.json(["name": "Boss", "password": "boss password", "role": "manager"])
                ).json["token"] as? String)
            let hours = (1...7).map { ["day": $0, "open": "10:00", "close": "22:00"] as [String: Any] }
            let created = try manager.request(
                "POST", "/v1/stores",
                body: ServerProcessTests.json([
                    "name": "Noodles", "categoryId": category, "location": ["lat": 30.659, "lng": 104.081],
                    "hours": hours, "timeZone": "Asia/Shanghai",
                ]), token: token)
            let storeID = try #require(created.json["id"] as? String, "\(created.body)")
            manager.stop()
            let near = "/v1/stores?near=30.66,104.08&radius=3000&sort=distance&open=now"
            for (start, open) in [("2026-11-30T12:00:00+08:00", true), ("2026-11-30T04:00:00+08:00", false)] {
                // MUT
                let server = try await ServerProcess(databaseURL: url, environment: ["CLOCK_START": start])
                defer { server.stop() }
                let listed = try server.request("GET", near)
                let picked = try server.request("GET", "/v1/pick?near=30.66,104.08&radius=3000")
                let page = try server.request("GET", "/v1/stores/\(storeID)")
                // validate
                #expect(listed.status == 200, "\(listed.body)")
                let items = listed.json["items"] as? [[String: Any]] ?? []
                #expect(items.map { $0["id"] as? String } == (open ? [storeID] : []), "\(start): \(listed.body)")
                #expect(picked.status == (open ? 200 : 404), "\(start): \(picked.body)")
                #expect(page.json["openNow"] as? Bool == open, "\(start): \(page.body)")
            }
        }
    }
}
