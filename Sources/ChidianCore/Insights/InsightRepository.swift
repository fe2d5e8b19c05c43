import Foundation
import PostgresNIO

/// Reads insights: the counted days (store_days) beside reviews, favorites and purchases read from their own
/// tables for the same days of the store's time zone.
public struct InsightRepository: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct StoreFacts: Sendable {
        public var managerID: String
        public var timeZone: String
        public var archived: Bool

        /// The store's zone (a stored name Foundation lacks falls back to the platform's).
        public var zone: TimeZone {
            TimeZone(identifier: timeZone) ?? TimeZone(identifier: PlatformStats.timeZone)!
        }
    }

    /// The store's manager and time zone (archived stores keep their insights), or 404 `store_not_found`.
    /// The platform's figures, read across every table (`PlatformStats`).
    package func platform(_ range: InsightRange) async throws -> PlatformStats {
        try await PlatformStats.load(database, range: range)
    }

    public func facts(storeID: String) async throws -> StoreFacts {
        guard PlausibleID.check(storeID),
            let row = try await database.query(
                "SELECT manager_id, time_zone, archived_at IS NOT NULL FROM stores WHERE id = \(storeID)"
            ).first
        else { throw StoreRepository.notFound(storeID) }
        let (manager, zone, archived) = try row.decodeAll((String, String, Bool).self)
        return StoreFacts(managerID: manager, timeZone: zone, archived: archived)
    }

    public func store(_ storeID: String, facts: StoreFacts, range: InsightRange) async throws -> StoreInsights {
        let rows = try await database.run(
            StoreDays(storeID: storeID, from: range.from, to: range.to, zone: facts.timeZone))
        let days = try (rows.first ?? "").utf8.split(separator: UInt8(ascii: "\n")).map(Self.day)
        let totals = days.reduce(StoreInsights.Figures()) { $0 + $1 }
        return StoreInsights(
            storeId: storeID, timeZone: facts.timeZone, days: days, totals: totals,
            promotion: try await promotion(storeID))
    }

    /// A line of `StoreDays`: the date, then 20 integers.
    package static func day(_ line: Substring.UTF8View) throws -> StoreInsights.Figures {
        let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count == 21 else { throw InsightError.malformedDay }
        var numbers: [Int] = []
        numbers.reserveCapacity(20)
        for field in fields.dropFirst() {
            var value = 0
            for byte in field {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw InsightError.malformedDay }
                value = value &* 10 &+ Int(byte &- UInt8(ascii: "0"))
            }
            numbers.append(value)
        }
        var day = StoreInsights.Figures(date: String(Substring(fields[0])))
        day.views = numbers[0]
        day.visitors = numbers[1]
        day.impressions = .init(numbers[2...6])
        day.clicks = .init(numbers[7...11])
        day.favorites = numbers[12]
        day.reviews = numbers[13]
        day.ratingSum = numbers[14]
        day.ratingCount = numbers[15]
        day.spend = numbers[16]
        day.claims = numbers[17]
        day.redemptions = numbers[18]
        day.notRecommended = numbers[19]
        return day
    }

    enum InsightError: Error { case malformedDay }

    /// The store's place among live stores with spend, in 每日促销's order (spend descending, then earlier
    /// creation, then id), and what passing the store just ahead costs: its spend minus ours, plus one unless
    /// ours would then win the tie (an earlier creation). Without spend, the smallest purchase (1) enters the list.
    public func promotion(_ storeID: String) async throws -> StoreInsights.Promotion {
        guard let (spend, live, ahead, next) = try await database.run(PromotionPlace(storeID: storeID)).first else {
            throw StoreRepository.notFound(storeID)
        }
        guard live else { return .init(rank: nil, adSpend: spend, nextRankAmount: nil) }
        guard spend > 0 else { return .init(rank: nil, adSpend: 0, nextRankAmount: 1) }
        return .init(rank: ahead + 1, adSpend: spend, nextRankAmount: next.map { max(1, $0) })
    }
}
