import Foundation

/// A store's weekly schedule: ranges of opening, several a day, each starting on a day (1 = Monday … 7 = Sunday)
/// and ending the next day when its close is not after its open (17:00–02:00). Ranges that start the same day
/// never overlap; a range past Sunday midnight goes on into Monday.
public struct WeeklyHours: Sendable, Equatable, Hashable {
    public struct Range: Sendable, Equatable, Hashable {
        /// 1 = Monday … 7 = Sunday.
        public var day: Int
        /// Minutes after midnight, 0..<1440.
        public var open: Int
        public var close: Int

        public init(day: Int, open: Int, close: Int) {
            self.day = day
            self.open = open
            self.close = close
        }

        /// How long it lasts: a close not after the open is the next day's (open == close is 24 hours).
        package var length: Int { close > open ? close - open : close + 1440 - open }
    }

    /// In the order of the week (day, then opening time).
    public private(set) var ranges: [Range]

    public static let minutesPerWeek = 7 * 1440
    /// A bound on each schedule's size (and on the work of reading it).
    public static let maxRanges = 70

    /// Checks the ranges (400 `invalid_hours`) and keeps them in the week's order.
    public init(_ ranges: [Range]) throws {
        guard ranges.count <= Self.maxRanges else {
            throw PlaceError.invalidHours("hours has at most \(Self.maxRanges) ranges.")
        }
        for range in ranges {
            guard (1...7).contains(range.day) else { throw PlaceError.invalidHours("day must be from 1 to 7.") }
            guard (0..<1440).contains(range.open), (0..<1440).contains(range.close) else {
                throw PlaceError.invalidHours("open and close must be times from 00:00 to 23:59.")
            }
        }
        let sorted = ranges.sorted { ($0.day, $0.open, $0.close) < ($1.day, $1.open, $1.close) }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.day == later.day {
            guard earlier.open + earlier.length <= later.open else {
                throw PlaceError.invalidHours(
                    "Ranges of day \(later.day) overlap: \(Self.clock(earlier.open))–\(Self.clock(earlier.close)) "
                        + "and \(Self.clock(later.open))–\(Self.clock(later.close)).")
            }
        }
        self.ranges = sorted
    }

    /// The contract's JSON (`[{day, open, close}]`), or 400 `invalid_hours` naming what is wrong.
    public static func parse(_ value: JSONValue) throws -> WeeklyHours {
        guard case .array(let items) = value else { throw PlaceError.invalidHours("hours must be an array or null.") }
        guard items.count <= maxRanges else { throw PlaceError.invalidHours("hours has at most \(maxRanges) ranges.") }
        let ranges = try items.enumerated().map { index, item -> Range in
            guard case .object(let members) = item, Set(members.keys) == ["day", "open", "close"] else {
                throw PlaceError.invalidHours("hours[\(index)] must be {day, open, close}.")
            }
            guard let day = members["day"]?.integerValue, (1...7).contains(day) else {
                throw PlaceError.invalidHours("hours[\(index)].day must be an integer from 1 (Monday) to 7 (Sunday).")
            }
            guard case .string(let open)? = members["open"], let openMinute = minute(open) else {
                throw PlaceError.invalidHours("hours[\(index)].open must be a time \"HH:MM\" from 00:00 to 23:59.")
            }
            guard case .string(let close)? = members["close"], let closeMinute = minute(close) else {
                throw PlaceError.invalidHours("hours[\(index)].close must be a time \"HH:MM\" from 00:00 to 23:59.")
            }
            return Range(day: day, open: openMinute, close: closeMinute)
        }
        return try WeeklyHours(ranges)
    }

    /// "HH:MM" (two digits each, 00:00–23:59) as minutes after midnight.
    public static func minute(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.enumerated().allSatisfy({
                $0.offset == 2 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element)
            })
        else { return nil }
        let digit = { (i: Int) in Int(bytes[i] - UInt8(ascii: "0")) }
        let (hour, minute) = (digit(0) * 10 + digit(1), digit(3) * 10 + digit(4))
        guard hour < 24, minute < 60 else { return nil }
        return hour * 60 + minute
    }

    /// Minutes after midnight as "HH:MM".
    public static func clock(_ minutes: Int) -> String {
        let value = ((minutes % 1440) + 1440) % 1440
        let (hour, minute) = (value / 60, value % 60)
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The open minutes of the week (Monday 00:00 is 0) as sorted, merged half-open intervals; a range past the
    /// week's end wraps to Monday. Migration 017's `store_week_minutes` computes the same in SQL.
    public var weekIntervals: [(start: Int, end: Int)] {
        var parts: [(start: Int, end: Int)] = []
        for range in ranges {
            let start = (range.day - 1) * 1440 + range.open
            let end = start + range.length
            parts.append((start, min(end, Self.minutesPerWeek)))
            if end > Self.minutesPerWeek { parts.append((0, end - Self.minutesPerWeek)) }
        }
        parts.sort { $0.start < $1.start }
        var merged: [(start: Int, end: Int)] = []
        for part in parts {
            if let last = merged.last, part.start <= last.end {
                merged[merged.count - 1].end = max(last.end, part.end)
            } else {
                merged.append(part)
            }
        }
        return merged
    }

    /// The minute of the week (Monday 00:00 is 0) that `date` falls on in `zone`: the local time's minutes since the
    /// epoch, which began on a Thursday. Arithmetic on the zone's offset instead of a `Calendar`, which cost more
    /// than the rest of writing a store; migration 017's `store_week_minute` computes the same.
    public static func weekMinute(of date: Date, in zone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        let minutes = Int((local / 60).rounded(.down))
        return ((minutes + 3 * 1440) % minutesPerWeek + minutesPerWeek) % minutesPerWeek
    }

    /// What the schedule says at `date` in `zone`.
    public func status(at date: Date, in zone: TimeZone) -> Status {
        let now = Self.weekMinute(of: date, in: zone)
        let intervals = weekIntervals
        guard !intervals.isEmpty else { return Status(open: false, closesAt: nil, opensAt: nil) }
        let week = Self.minutesPerWeek
        if intervals.count == 1, intervals[0] == (0, week) { return Status(open: true, closesAt: nil, opensAt: nil) }
        if let current = intervals.first(where: { $0.start <= now && now < $0.end }) {
            // An interval ending at the week's end goes on when another starts at Monday 00:00.
            var end = current.end
            if end == week, let first = intervals.first, first.start == 0 { end = week + first.end }
            return Status(open: true, closesAt: Moment(weekMinute: end), opensAt: nil)
        }
        let next = intervals.first(where: { $0.start > now }) ?? intervals[0]
        return Status(open: false, closesAt: nil, opensAt: Moment(weekMinute: next.start))
    }

    /// Open or not, and the next change in the store's own clock.
    public struct Status: Sendable, Equatable {
        public var open: Bool
        /// When open and not round the clock: when it closes.
        public var closesAt: Moment?
        /// When closed: when it opens next.
        public var opensAt: Moment?
    }

    /// A time of the store's week: day 1–7 and "HH:MM".
    public struct Moment: Sendable, Equatable {
        public var day: Int
        public var time: String

        package init(weekMinute: Int) {
            let minute = weekMinute % WeeklyHours.minutesPerWeek
            day = minute / 1440 + 1
            time = WeeklyHours.clock(minute % 1440)
        }
    }
}

/// IANA time zones as the contract takes them.
public enum StoreTimeZone {
    public static let defaultName = "Asia/Shanghai"

    /// The system's IANA names (the same tz database PostgreSQL reads on Debian).
    package static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers)

    /// The zone named `name`, or 400 `invalid_time_zone`.
    public static func valid(_ name: String) throws -> String {
        guard name.count <= 64, known.contains(name), TimeZone(identifier: name) != nil else {
            throw PlaceError.invalidTimeZone
        }
        return name
    }

    /// The zone to compute in (a stored name always resolves; the default otherwise).
    public static func zone(_ name: String) -> TimeZone {
        TimeZone(identifier: name) ?? TimeZone(identifier: defaultName)!
    }
}

extension WeeklyHours {
    /// The `hours` column as PostgreSQL gives it back (jsonb as text); nil when it does not read as a schedule.
    package init?(stored text: String) {
        if let hours = Self.canonical(Array(text.utf8)) {
            self = hours
            return
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            let hours = try? WeeklyHours.parse(value)
        else { return nil }
        self = hours
    }

    /// The contract's JSON for the `hours` column.
    package var storedJSON: String {
        var json = JSONWriter(capacity: 32 * ranges.count + 2)
        json.array(ranges) { json, range in
            json.object { json in
                json.key("day"); json.int(range.day)
                json.key("open"); json.string(WeeklyHours.clock(range.open))
                json.key("close"); json.string(WeeklyHours.clock(range.close))
            }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension WeeklyHours {
    private static let rangeStart = Array(#"{"day": "#.utf8)
    private static let openKey = Array(#", "open": ""#.utf8)
    private static let closeKey = Array(#"", "close": ""#.utf8)
    private static let rangeEnd = Array(#""}"#.utf8)
    private static let separator = Array(", ".utf8)

    /// jsonb's own text of what `storedJSON` wrote (`[{"day": 1, "open": "11:00", "close": "21:00"}, …]`: jsonb
    /// puts shorter keys first and a space after `:` and `,`), read without a JSON decoder, which was 40 % of a
    /// near-me page's server time where the cache missed. nil for any other text, which the decoder then reads.
    static func canonical(_ bytes: [UInt8]) -> WeeklyHours? {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var index = 1
        func take(_ literal: [UInt8]) -> Bool {
            guard bytes.count - index >= literal.count, bytes[index..<index + literal.count].elementsEqual(literal)
            else { return false }
            index += literal.count
            return true
        }
        func time() -> Int? {
            guard bytes.count - index >= 5,
                let minute = minute(String(decoding: bytes[index..<index + 5], as: UTF8.self))
            else { return nil }
            index += 5
            return minute
        }
        var ranges: [Range] = []
        while index < bytes.count - 1 {
            guard ranges.isEmpty || take(separator), ranges.count < maxRanges, take(rangeStart),
                index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[index])
            else { return nil }
            let day = Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            guard take(openKey), let open = time(), take(closeKey), let close = time(), take(rangeEnd) else {
                return nil
            }
            ranges.append(Range(day: day, open: open, close: close))
        }
        return try? WeeklyHours(ranges)
    }
}
