import Foundation

/// How busy a store usually is by local weekday and hour (Google's "popular times"), from its views of the last
/// `days` days: each hour as a share of the busiest, 0–100.
public struct PopularTimes: Sendable, Equatable {
    /// Eight weeks: each weekday's hour is the sum of eight days.
    public static let days = 56
    /// Fewer views than this say nothing yet: `days` stays empty.
    public static let minimumViews: Int64 = 200

    public var timeZone: String
    /// Views by weekday (0 = Monday) × 24 + hour, summed over the weeks.
    package var counts: [Int64]

    public struct Day: Sendable, Equatable {
        /// 1 = Monday … 7 = Sunday.
        public var day: Int
        public var hours: [Int]
    }

    /// How busy now is, in words: the store page's "现在通常不忙 / 比较忙 / 很忙" and the pick's `quiet`.
    public enum Level: String, Sendable {
        case quiet, busy, veryBusy

        init(_ share: Int) {
            self = share < 40 ? .quiet : share < 70 ? .busy : .veryBusy
        }
    }

    package init(timeZone: String, counts: [Int64] = Array(repeating: 0, count: 168)) {
        self.timeZone = timeZone
        self.counts = counts
    }

    public var total: Int64 { counts.reduce(0, +) }

    /// Every weekday's 24 hours as shares of the busiest hour; empty while fewer than `minimumViews` are known.
    public var week: [Day] {
        let peak = counts.max() ?? 0
        guard total >= Self.minimumViews, peak > 0 else { return [] }
        return (0..<7).map { weekday in
            Day(
                day: weekday + 1,
                hours: (0..<24).map { hour in
                    Int((Double(counts[weekday * 24 + hour]) * 100 / Double(peak)).rounded())
                })
        }
    }

    /// The local weekday (1 = Monday) and hour of `date` in the store's zone.
    public func local(_ date: Date) -> (day: Int, hour: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = StoreTimeZone.zone(timeZone)
        let parts = calendar.dateComponents([.weekday, .hour], from: date)
        // Calendar's weekday is 1 = Sunday.
        return ((parts.weekday! + 5) % 7 + 1, parts.hour!)
    }

    /// The current hour of today as a share of the usual peak; nil while `week` is empty.
    public func now(at date: Date) -> Int? {
        let week = week
        guard !week.isEmpty else { return nil }
        let (day, hour) = local(date)
        return week[day - 1].hours[hour]
    }

    public func level(at date: Date) -> Level? { now(at: date).map(Level.init) }
}
