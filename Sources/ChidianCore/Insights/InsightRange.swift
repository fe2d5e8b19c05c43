import Foundation

/// `?from=YYYY-MM-DD&to=YYYY-MM-DD`: inclusive days of one time zone, at most 366; the last 30 days by default.
public struct InsightRange: Sendable, Equatable {
    public let from: String
    public let to: String
    public let dayCount: Int

    static let maxDays = 366
    public static let defaultDays = 30

    package static let invalid = Problem.badRequest(
        "invalid_range", "from and to must be dates (YYYY-MM-DD), from not after to, at most 366 days.")

    /// Parses the query's days; `to` defaults to today in `timeZone`, `from` to `span` days ending at `to`.
    public init(from rawFrom: String?, to rawTo: String?, timeZone: TimeZone, now: Date, span: Int = defaultDays)
        throws
    {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func parse(_ raw: String) throws -> Date {
            let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
            guard raw.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
                parts[2].count == 2, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
                (1...9999).contains(y), let date = calendar.date(from: DateComponents(year: y, month: m, day: d)),
                calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: y, month: m, day: d)
            else { throw Self.invalid }
            return date
        }
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        let today = local.dateComponents([.year, .month, .day], from: now)
        let todayUTC = calendar.date(from: today)!
        let end = try rawTo.map(parse) ?? todayUTC
        let start = try rawFrom.map(parse) ?? calendar.date(byAdding: .day, value: 1 - span, to: end)!
        let days = calendar.dateComponents([.day], from: start, to: end).day ?? 0
        guard days >= 0, days < Self.maxDays else { throw Self.invalid }
        let format = { (date: Date) -> String in
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        from = format(start)
        to = format(end)
        dayCount = days + 1
    }
}
