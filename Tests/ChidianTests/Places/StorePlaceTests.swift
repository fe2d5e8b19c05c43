import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A store's position, hours and zone through the API: what it shows, what it refuses (writing nothing), and
/// the near-me list.
@Suite struct StorePlaceTests {
    static var alwaysOpen: [[String: Any]] { (1...7).map { ["day": $0, "open": "00:00", "close": "00:00"] } }

    @Test func aStoreShowsItsPlaceAndHours() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            // MUT
            let created = try await StoreFixture.created(
                client, manager, name: "蜀香", categoryID: category,
                extra: [
                    "location": ["lat": 30.659, "lng": 104.081], "hours": Self.alwaysOpen,
                    "timeZone": "Asia/Urumqi",
                ]
            ).json()
            let id = try StoreFixture.store(created).id
            let plain = try await StoreFixture.created(client, manager, name: "无名", categoryID: category).json()
            let read = try await client.send(.get, "/v1/stores/\(id)").json()
            // validate
            for store in [created, read] {
                #expect(store["location"] as? [String: Double] == ["lat": 30.659, "lng": 104.081])
                #expect((store["hours"] as? [[String: Any]])?.count == 7)
                #expect(store["timeZone"] as? String == "Asia/Urumqi")
                #expect(store["openNow"] as? Bool == true)
                #expect(store["closesAt"] is NSNull && store["opensAt"] is NSNull, "open round the clock")
                #expect(store["distanceMeters"] == nil, "only with near")
            }
            #expect(plain["location"] is NSNull && plain["hours"] is NSNull && plain["openNow"] is NSNull)
            #expect(plain["timeZone"] as? String == "Asia/Shanghai")
        }
    }

    @Test func patchSetsAndNullClearsAndAbsentKeeps() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "蜀香", categoryID: category).id
            let path = "/v1/stores/\(id)"
            // MUT
            let set = try await client.send(
                .patch, path,
                body: [
                    "location": ["lat": -33.8688, "lng": 151.2093],
                    "hours": [["day": 5, "open": "17:00", "close": "02:00"]], "timeZone": "Australia/Sydney",
                ], token: manager.token)
            let renamed = try await client.send(.patch, path, body: ["name": "蜀香二店"], token: manager.token)
            let cleared = try await client.send(
                .patch, path, body: ["location": NSNull(), "hours": NSNull(), "timeZone": NSNull()],
                token: manager.token)
            // validate
            #expect(set.status == .ok)
            let setBody = try set.json()
            #expect((setBody["hours"] as? [[String: Any]])?.first?["close"] as? String == "02:00")
            #expect(setBody["timeZone"] as? String == "Australia/Sydney")
            #expect(setBody["openNow"] is Bool)
            let kept = try renamed.json()
            #expect(kept["location"] as? [String: Double] == ["lat": -33.8688, "lng": 151.2093], "absent keeps")
            #expect(kept["timeZone"] as? String == "Australia/Sydney")
            let gone = try cleared.json()
            #expect(gone["location"] is NSNull && gone["hours"] is NSNull && gone["openNow"] is NSNull)
            #expect(gone["timeZone"] as? String == "Asia/Shanghai", "null puts the default zone back")
            #expect(gone["name"] as? String == "蜀香二店")
        }
    }

    @Test func everyRefusalWritesNothing() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "蜀香", categoryID: category).id
            let before = try await client.send(.get, "/v1/stores/\(id)").json()
            let refusals: [([String: Any], String)] = [
                (["location": ["lat": 91, "lng": 0]], "invalid_location"),
                (["location": ["lat": -90.01, "lng": 0]], "invalid_location"),
                (["location": ["lat": 0, "lng": 180.5]], "invalid_location"),
                (["location": ["lat": "30.6", "lng": "104"]], "invalid_location"),
                (["location": ["lat": 30.6]], "invalid_location"),
                (["location": "30.6,104.0"], "invalid_location"),
                (["location": [30.6, 104.0]], "invalid_location"),
                (["hours": [["day": 1, "open": "25:00", "close": "26:00"]]], "invalid_hours"),
                (
                    [
                        "hours": [
                            ["day": 1, "open": "11:00", "close": "14:00"],
                            ["day": 1, "open": "13:00", "close": "15:00"],
                        ]
                    ],
                    "invalid_hours"
                ),
                (["hours": "周一 11:00-14:00"], "invalid_hours"),
                (["hours": [["day": 9, "open": "11:00", "close": "14:00"]]], "invalid_hours"),
                (["timeZone": "Mars/Olympus"], "invalid_time_zone"),
                (["timeZone": 8], "invalid_time_zone"),
            ]
            for (fields, code) in refusals {
                // MUT: each with a valid name change that must not land either
                var body = fields
                body["name"] = "改了"
                let patch = try await client.send(.patch, "/v1/stores/\(id)", body: body, token: manager.token)
                var create = fields
                create["name"] = "新店"
                create["categoryId"] = category
                let post = try await client.send(.post, "/v1/stores", body: create, token: manager.token)
                // validate
                #expect(patch.status == .badRequest && post.status == .badRequest, "\(fields)")
                #expect(try patch.json()["code"] as? String == code, "\(fields)")
                #expect(try post.json()["code"] as? String == code, "\(fields)")
            }
            // NaN and text in raw JSON
            for raw in [#"{"location":{"lat":NaN,"lng":0}}"#, #"{"location":{"lat":1e999,"lng":0}}"#] {
                let response = try await client.sendRaw(.patch, "/v1/stores/\(id)", body: raw, token: manager.token)
                #expect(response.status == .badRequest, "\(raw)")
            }
            let after = try await client.send(.get, "/v1/stores/\(id)").json()
            #expect(after["version"] as? Int == before["version"] as? Int)
            #expect(after["name"] as? String == "蜀香")
            let count = try await app.database.query("SELECT count(*)::int FROM stores").first!.decode(Int.self)
            #expect(count == 1, "no refused store was created")
        }
    }

    /// Stores at known offsets from a centre in Chengdu; returns their ids by name.
    static func placed(_ client: any TestClientProtocol, _ app: TestApp, hours: [String: Any] = [:]) async throws
        -> (ids: [String: String], manager: Session, category: String, other: String)
    {
        let manager = try await client.register("Boss", role: "manager")
        let hotpot = try await StoreFixture.category(app, "火锅")
        let noodles = try await StoreFixture.category(app, "面馆")
        // name: (lat, lng, category)
        let places: [(String, Double, Double, String)] = [
            ("center", 30.659, 104.081, hotpot), ("north1k", 30.668, 104.081, hotpot),
            ("east2k", 30.659, 104.1018, noodles), ("south5k", 30.614, 104.081, hotpot),
            ("far", 31.2304, 121.4737, hotpot),
        ]
        var ids: [String: String] = [:]
        for (name, lat, lng, category) in places {
            var extra: [String: Any] = ["location": ["lat": lat, "lng": lng]]
            if let schedule = hours[name] { extra["hours"] = schedule }
            ids[name] =
                try await StoreFixture.store(client, manager, name: name, categoryID: category, extra: extra).id
        }
        ids["nowhere"] =
            try await StoreFixture.store(client, manager, name: "nowhere", categoryID: hotpot).id
        return (ids, manager, hotpot, noodles)
    }

    @Test func nearKeepsStoresWithinTheRadiusNearestFirst() async throws {
        try await TestApp.run { client, app in
            // setup
            let (ids, _, hotpot, _) = try await Self.placed(client, app)
            let centre = GeoPoint(lat: 30.659, lng: 104.081)
            // MUT
            let near = try await client.send(.get, "/v1/stores?near=30.659,104.081&sort=distance")
            let wide = try await client.send(.get, "/v1/stores?near=30.659,104.081&radius=6000&sort=distance&limit=2")
            let hotpotOnly = try await client.send(
                .get, "/v1/stores?near=30.659,104.081&radius=6000&category=\(hotpot)&sort=name")
            let byRating = try await client.send(.get, "/v1/stores?near=30.659,104.081&radius=50000")
            // validate
            #expect(near.status == .ok)
            let items = try StoreFixture.items(near)
            #expect(items.map { $0["id"] as! String } == [ids["center"]!, ids["north1k"]!, ids["east2k"]!])
            for item in items {
                let location = item["location"] as! [String: Double]
                let expected = WeeklyHoursTests.lawOfCosines(
                    centre, GeoPoint(lat: location["lat"]!, lng: location["lng"]!))
                let distance = Double(item["distanceMeters"] as! Int)
                #expect(
                    abs(distance - expected) <= max(1, expected * 0.005), "\(item["name"]!): \(distance) vs \(expected)"
                )
            }
            #expect(try StoreFixture.ids(wide).count == 2)
            let walked = try await StoreFixture.walk(
                client, "/v1/stores?near=30.659,104.081&radius=6000&sort=distance", limit: 1)
            #expect(walked.ids == [ids["center"]!, ids["north1k"]!, ids["east2k"]!, ids["south5k"]!])
            #expect(Set(try StoreFixture.ids(hotpotOnly)) == [ids["center"]!, ids["north1k"]!, ids["south5k"]!])
            #expect(!(try StoreFixture.ids(byRating)).contains(ids["far"]!))
            #expect(
                !(try StoreFixture.ids(byRating)).contains(ids["nowhere"]!), "a store without a position is never near")
        }
    }

    @Test func openNowKeepsOnlyOpenStores() async throws {
        try await TestApp.run { client, app in
            // setup: "center" always open, "north1k" with an empty week (never open), "east2k" without hours
            let (ids, _, _, _) = try await Self.placed(
                client, app, hours: ["center": Self.alwaysOpen, "north1k": [[String: Any]]()])
            // MUT
            let open = try await client.send(.get, "/v1/stores?near=30.659,104.081&open=now&sort=distance")
            let everywhere = try await client.send(.get, "/v1/stores?open=now")
            let all = try await client.send(.get, "/v1/stores?near=30.659,104.081")
            // validate
            #expect(try StoreFixture.ids(open) == [ids["center"]!])
            #expect(try StoreFixture.ids(everywhere) == [ids["center"]!])
            let flags = Dictionary(
                uniqueKeysWithValues: try StoreFixture.items(all).map { ($0["id"] as! String, $0["openNow"]!) })
            #expect(flags[ids["center"]!] as? Bool == true)
            #expect(flags[ids["north1k"]!] as? Bool == false)
            #expect(flags[ids["east2k"]!] is NSNull)
        }
    }

    @Test(arguments: [
        ("/v1/stores?near=91,0", "invalid_near"), ("/v1/stores?near=abc", "invalid_near"),
        ("/v1/stores?near=30.6,nan", "invalid_near"), ("/v1/stores?near=1,2&radius=50001", "invalid_radius"),
        ("/v1/stores?near=1,2&radius=0", "invalid_radius"), ("/v1/stores?radius=x", "invalid_radius"),
        ("/v1/stores?sort=distance", "near_required"), ("/v1/stores?open=later", "invalid_open"),
        ("/v1/search?q=%E7%81%AB&near=1", "invalid_near"),
        ("/v1/search?q=%E7%81%AB&near=1,2&radius=99999", "invalid_radius"),
        ("/v1/pick?near=-91,0", "invalid_near"), ("/v1/pick?near=1,2&radius=60000", "invalid_radius"),
        ("/v1/pick?maxPrice=0", "invalid_price"),
    ])
    func badPositionsAreRefused(uri: String, code: String) async throws {
        try await TestApp.run { client, _ in
            let response = try await client.send(.get, uri)
            #expect(response.status == .badRequest)
            #expect(try response.json()["code"] as? String == code)
        }
    }

    @Test func searchNearKeepsItsOrderWithinTheRadius() async throws {
        try await TestApp.run { client, app in
            // setup
            let (ids, _, _, _) = try await Self.placed(client, app)
            // MUT
            let response = try await client.send(
                .get, "/v1/search?q=%E7%81%AB%E9%94%85&near=30.659,104.081&radius=6000")
            // validate
            #expect(response.status == .ok)
            let items = try StoreFixture.items(response).map { $0["store"] as! [String: Any] }
            #expect(Set(items.map { $0["id"] as! String }) == [ids["center"]!, ids["north1k"]!, ids["south5k"]!])
            #expect(items.allSatisfy { ($0["distanceMeters"] as? Int).map { $0 <= 6000 } == true })
        }
    }

    /// Migration 017's SQL and the Swift schedule agree on which minutes of the week are open.
    @Test func sqlAndSwiftAgreeOnOpenMinutes() async throws {
        try await TestApp.run { _, app in
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<40 {
                var ranges: [WeeklyHours.Range] = []
                for day in 1...7 where Bool.random(using: &generator) {
                    let open = Int.random(in: 0..<1440, using: &generator)
                    ranges.append(.init(day: day, open: open, close: Int.random(in: 0..<1440, using: &generator)))
                }
                let hours = try WeeklyHours(ranges)
                let rows = try await app.database.query(
                    "SELECT lower(r), upper(r) FROM unnest(store_week_minutes(\(hours.storedJSON)::jsonb)) AS r")
                let sql = try rows.map { row -> [Int] in
                    let (start, end) = try row.decode((Int, Int).self)
                    return [start, end]
                }
                #expect(sql == hours.weekIntervals.map { [$0.start, $0.end] }, "\(hours.storedJSON)")
            }
            // And on the minute of the week in a zone, in summer and winter time and across a change of offset.
            let moments = [
                WeeklyHoursTests.date("2026-11-29 23:59"), WeeklyHoursTests.date("2026-07-01 12:00"),
                Date(timeIntervalSince1970: 1_772_953_200), Date(timeIntervalSince1970: 1_772_956_800 + 59),
            ]
            for moment in moments {
                for zone in ["Asia/Shanghai", "America/New_York", "Pacific/Kiritimati", "Europe/London"] {
                    let sql = try await app.database.query("SELECT store_week_minute(\(moment)::timestamptz, \(zone))")
                        .first!.decode(Int.self)
                    #expect(
                        sql == WeeklyHours.weekMinute(of: moment, in: TimeZone(identifier: zone)!), "\(zone) \(moment)")
                }
            }
        }
    }
}
