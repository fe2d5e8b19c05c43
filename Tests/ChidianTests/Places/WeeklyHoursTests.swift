import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Schedules without a database: ranges past midnight and across the week's end, zones, and every refusal.
@Suite struct WeeklyHoursTests {
    static let shanghai = TimeZone(identifier: "Asia/Shanghai")!

    /// A moment given as local wall-clock time in `zone`.
    static func date(_ text: String, in zone: TimeZone = shanghai) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    static func hours(_ json: String) throws -> WeeklyHours {
        try WeeklyHours.parse(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test func aRangePastMidnightIsOpenTheNextMorning() throws {
        // setup: Friday 17:00-02:00 only (2026-11-27 is a Friday)
        let hours = try Self.hours(#"[{"day":5,"open":"17:00","close":"02:00"}]"#)
        // MUT + validate
        #expect(hours.status(at: Self.date("2026-11-27 16:59"), in: Self.shanghai).open == false)
        #expect(hours.status(at: Self.date("2026-11-27 17:00"), in: Self.shanghai).open)
        let lateNight = hours.status(at: Self.date("2026-11-28 01:59"), in: Self.shanghai)
        #expect(lateNight.open, "Saturday 01:59 belongs to Friday's range")
        #expect(lateNight.closesAt == .init(weekMinute: 5 * 1440 + 120))
        #expect(lateNight.closesAt?.day == 6 && lateNight.closesAt?.time == "02:00")
        let closed = hours.status(at: Self.date("2026-11-28 02:00"), in: Self.shanghai)
        #expect(!closed.open)
        #expect(closed.opensAt?.day == 5 && closed.opensAt?.time == "17:00")
    }

    @Test func sundayNightRunsOnIntoMonday() throws {
        // setup: Sunday 22:00-03:00 and Monday 03:00-05:00 (2026-11-29 is a Sunday)
        let hours = try Self.hours(
            #"[{"day":7,"open":"22:00","close":"03:00"},{"day":1,"open":"03:00","close":"05:00"}]"#)
        // MUT
        let monday = hours.status(at: Self.date("2026-11-30 01:30"), in: Self.shanghai)
        // validate
        #expect(monday.open, "Monday 01:30 is inside Sunday's range, which wraps past the week's end")
        #expect(monday.closesAt?.day == 1 && monday.closesAt?.time == "05:00", "back-to-back ranges close once")
        #expect(hours.status(at: Self.date("2026-11-29 23:00"), in: Self.shanghai).closesAt?.time == "05:00")
        #expect(!hours.status(at: Self.date("2026-11-30 05:00"), in: Self.shanghai).open)
        #expect(hours.weekIntervals.map { [$0.start, $0.end] } == [[0, 300], [9960, 10080]])
    }

    @Test func equalTimesAreAWholeDayAndEveryDayIsRoundTheClock() throws {
        let always = try Self.hours(
            "[" + (1...7).map { #"{"day":\#($0),"open":"00:00","close":"00:00"}"# }.joined(separator: ",") + "]")
        let status = always.status(at: Self.date("2026-11-26 13:00"), in: Self.shanghai)
        #expect(status.open && status.closesAt == nil && status.opensAt == nil)
        let tuesday = try Self.hours(#"[{"day":2,"open":"09:00","close":"09:00"}]"#)
        #expect(tuesday.weekIntervals.map { [$0.start, $0.end] } == [[1980, 3420]])
    }

    @Test func equalSchedulesReadApartShareOneStorageAndOthersKeepTheirOwn() throws {
        // setup: two equal schedules parsed separately (two storages), and a different one
        let text = #"[{"day":3,"open":"10:17","close":"21:43"},{"day":4,"open":"10:17","close":"21:43"}]"#
        let (first, second) = (try Self.hours(text), try Self.hours(text))
        let other = try Self.hours(#"[{"day":3,"open":"10:17","close":"21:44"}]"#)
        func storage(_ hours: WeeklyHours) -> UnsafeRawPointer? {
            hours.ranges.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        #expect(storage(first) != storage(second))
        // MUT
        let (a, b, c) = (first.shared(), second.shared(), other.shared())
        // validate
        #expect(a == first && b == second && c == other)
        #expect(storage(a) == storage(b))
        #expect(storage(c) != storage(a))
    }

    @Test func theStoreZoneDecides() throws {
        // setup: open 09:00-17:00 every day
        let hours = try Self.hours(
            "[" + (1...7).map { #"{"day":\#($0),"open":"09:00","close":"17:00"}"# }.joined(separator: ",") + "]")
        let moment = Self.date("2026-11-26 10:00")  // 10:00 in Shanghai is 21:00 the day before in New York
        // MUT + validate
        #expect(hours.status(at: moment, in: Self.shanghai).open)
        #expect(!hours.status(at: moment, in: TimeZone(identifier: "America/New_York")!).open)
        #expect(hours.status(at: moment, in: TimeZone(identifier: "Europe/London")!).open == false)
        #expect(hours.status(at: Self.date("2026-11-26 18:00"), in: TimeZone(identifier: "Europe/London")!).open)
        #expect(try StoreTimeZone.valid("America/New_York") == "America/New_York")
        for bad in ["Mars/Olympus", "", "asia/shanghai", "Asia/Shanghai ", String(repeating: "A", count: 100)] {
            #expect(throws: PlaceError.invalidTimeZone) { try StoreTimeZone.valid(bad) }
        }
    }

    @Test(arguments: [
        #"{"day":1,"open":"11:00","close":"14:00"}"#,  // not an array
        #"[{"day":0,"open":"11:00","close":"14:00"}]"#,
        #"[{"day":8,"open":"11:00","close":"14:00"}]"#,
        #"[{"day":"1","open":"11:00","close":"14:00"}]"#,
        #"[{"day":1.5,"open":"11:00","close":"14:00"}]"#,
        #"[{"day":1,"open":"25:00","close":"14:00"}]"#,
        #"[{"day":1,"open":"11:60","close":"14:00"}]"#,
        #"[{"day":1,"open":"24:00","close":"02:00"}]"#,
        #"[{"day":1,"open":"9:00","close":"14:00"}]"#,
        #"[{"day":1,"open":"11:00"}]"#,
        #"[{"day":1,"open":"11:00","close":"14:00","extra":1}]"#,
        #"[{"day":1,"open":"11:00","close":"14:00"},{"day":1,"open":"13:00","close":"15:00"}]"#,
        #"[{"day":1,"open":"17:00","close":"02:00"},{"day":1,"open":"23:00","close":"23:30"}]"#,
        #"[{"day":1,"open":"10:00","close":"10:00"},{"day":1,"open":"12:00","close":"13:00"}]"#,
        #"[1]"#,
    ])
    func badSchedulesAreRefused(json: String) throws {
        #expect(throws: PlaceError.self) { try Self.hours(json) }
        do {
            _ = try Self.hours(json)
        } catch let error as PlaceError {
            #expect(error.code == "invalid_hours")
        }
    }

    @Test func rangesTouchingOrOnOtherDaysAreAccepted() throws {
        let hours = try Self.hours(
            #"[{"day":1,"open":"14:00","close":"17:00"},{"day":1,"open":"11:00","close":"14:00"},"#
                + #"{"day":2,"open":"01:00","close":"03:00"},{"day":1,"open":"22:00","close":"02:00"}]"#)
        #expect(hours.ranges.map(\.open) == [660, 840, 1320, 60], "kept in the week's order")
    }

    @Test func hoursAsPeopleWriteThem() throws {
        // MUT
        let parsed = try #require(try HoursText.parse("周一至周五 11:00-14:00, 17:00-02:00；周六、周日 10:00 - 22:00"))
        // validate
        #expect(parsed.ranges.count == 12)
        #expect(parsed.ranges.first == .init(day: 1, open: 660, close: 840))
        #expect(parsed.ranges.contains(.init(day: 5, open: 1020, close: 120)))
        #expect(HoursText.format(parsed) == "周一至周五 11:00-14:00, 17:00-02:00；周六至周日 10:00-22:00")
        #expect(try HoursText.parse(HoursText.format(parsed)) == parsed, "what is shown reads back the same")
        #expect(try HoursText.parse("Mon-Fri 9:00-17:00; Sat 10:00-24:00") != nil)
        #expect(try HoursText.parse("每天 10:00-22:00")?.ranges.count == 7)
        #expect(try HoursText.parse("11:00-23:00")?.ranges.count == 7, "times alone mean every day")
        #expect(try HoursText.parse("星期五至星期一 18:00-03:00")?.ranges.map(\.day) == [1, 5, 6, 7])
        #expect(try HoursText.parse("  ") == nil)
        for bad in ["周八 10:00-12:00", "周一 10:00", "周一 25:00-26:00", "周一 10:00-12:00, 11:00-13:00", "abc"] {
            #expect(throws: PlaceError.self, "\(bad)") { try HoursText.parse(bad) }
        }
    }

    /// The great-circle distance by the spherical law of cosines, a formula independent of the haversine used.
    static func lawOfCosines(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let r = Double.pi / 180
        let cosine =
            sin(a.lat * r) * sin(b.lat * r) + cos(a.lat * r) * cos(b.lat * r) * cos((b.lng - a.lng) * r)
        return 6_371_000 * acos(min(1, max(-1, cosine)))
    }

    @Test func distancesAreGreatCirclesOnTheContractSphere() {
        let chunxi = GeoPoint(lat: 30.659, lng: 104.081)
        let places = [
            GeoPoint(lat: 30.6695, lng: 104.0555),  // 宽窄巷子, about 2.7 km
            GeoPoint(lat: 23.1291, lng: 113.2644),  // Guangzhou, over 1,200 km
            GeoPoint(lat: -33.8688, lng: 151.2093),  // Sydney
            GeoPoint(lat: 30.659, lng: 104.081),
        ]
        for place in places {
            let expected = Self.lawOfCosines(chunxi, place)
            #expect(abs(chunxi.distance(to: place) - expected) <= max(0.5, expected * 0.0001), "\(place)")
        }
        // One degree of latitude on a 6,371 km sphere.
        #expect(abs(GeoPoint(lat: 0, lng: 0).distance(to: GeoPoint(lat: 1, lng: 0)) - 111_194.93) < 0.5)
    }

    @Test(arguments: [
        "", "30.6", "30.6,", ",104", "91,0", "-90.5,0", "0,180.1", "nan,0", "0,inf", "abc,def",
        "1e3,0", "30.6,104,1", "0x10,0", "30.6;104",
    ])
    func malformedNearIsRefused(raw: String) {
        #expect(throws: PlaceError.invalidNear) { try GeoPoint.near(query: raw) }
    }

    @Test func nearAndRadiusParse() throws {
        #expect(
            try NearQuery.parse(near: "30.659,104.081", radius: nil)
                == NearQuery(point: .init(lat: 30.659, lng: 104.081)))
        #expect(try NearQuery.parse(near: "-90,180", radius: "50000")?.radius == 50_000)
        #expect(try NearQuery.parse(near: nil, radius: nil) == nil)
        // Spaces around a number, ASCII or not, are trimmed as before; the untrimmed fast path gives the same.
        for spaced in [" 30.659, 104.081 ", "\u{3000}30.659,\t104.081", "+30.659,104.081"] {
            #expect(try GeoPoint.near(query: spaced) == GeoPoint(lat: 30.659, lng: 104.081), "\(spaced)")
        }
        #expect(throws: PlaceError.invalidNear) { try GeoPoint.near(query: "30.659\n,104.081") }
        #expect(throws: PlaceError.invalidNear) { try GeoPoint.near(query: "--1,1") }
        for bad in ["0", "50001", "-1", "1.5", "abc", "1e3", String(repeating: "9", count: 30)] {
            #expect(throws: PlaceError.invalidRadius, "\(bad)") { try NearQuery.parse(near: "1,1", radius: bad) }
        }
    }
}

/// The `hours` column read back: jsonb's own text goes through the decoder-free reader, anything else through
/// the decoder, and both give the schedule that was written.
@Suite struct StoredHoursTests {
    static let schedules: [[WeeklyHours.Range]] = [
        [],
        [.init(day: 1, open: 660, close: 840), .init(day: 1, open: 1020, close: 120)],
        (1...7).map { .init(day: $0, open: 0, close: 0) },
        [.init(day: 7, open: 1380, close: 59), .init(day: 3, open: 5, close: 1439)],
    ]

    @Test func jsonbsOwnTextIsReadWithoutTheDecoder() async throws {
        try await TestApp.run { _, app in
            for ranges in Self.schedules {
                // setup
                let hours = try WeeklyHours(ranges)
                // MUT
                let text = try await app.database.query("SELECT \(hours.storedJSON)::jsonb::text").first!
                    .decode(String.self)
                // validate
                #expect(WeeklyHours.canonical(Array(text.utf8)) == hours, "\(text)")
                #expect(WeeklyHours(stored: text) == hours)
            }
        }
    }

    @Test(arguments: [
        #"[{"day":1,"open":"11:00","close":"14:00"}]"#, #"[{"close": "14:00", "day": 1, "open": "11:00"}]"#,
        #"[{"day": 1, "open": "11:00", "close": "14:00"},{"day": 2, "open": "11:00", "close": "14:00"}]"#,
        // Foundation's decoder forgives a trailing comma; jsonb never writes one.
        #"[{"day": 1, "open": "11:00", "close": "14:00"}, ]"#,
    ])
    func otherTextsGoThroughTheDecoder(text: String) {
        #expect(WeeklyHours.canonical(Array(text.utf8)) == nil)
        #expect(WeeklyHours(stored: text)?.ranges.first == .init(day: 1, open: 660, close: 840))
    }

    @Test(arguments: [
        #"[{"day": 8, "open": "11:00", "close": "14:00"}]"#, #"[{"day": 1, "open": "25:00", "close": "14:00"}]"#,
        #"[{"day": 1, "open": "11:00", "close": "14:00"}"#,
        #"[{"day": 1, "open": "11:00", "close": "14:00"}, {"day": 1, "open": "12:00", "close": "13:00"}]"#, "",
    ])
    func badTextsAreNoSchedule(text: String) {
        #expect(WeeklyHours.canonical(Array(text.utf8)) == nil)
        #expect(WeeklyHours(stored: text) == nil)
    }
}
