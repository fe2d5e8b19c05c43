import Foundation
import PostgresNIO

/// Reads insights: the counted days (store_days) beside reviews, favorites and purchases read from their own
/// tables for the same days of the store's time zone.
public struct InsightRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct StoreFacts: Sendable {
        public var managerID: String
        public var timeZone: String
        public var archived: Bool
    }

    /// The store's manager and time zone (archived stores keep their insights), or 404 `store_not_found`.
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
        let days = rows.map { row -> StoreInsights.Figures in
            let (date, views, visitors, i0, i1, i2, i3, i4, c0, c1, c2, c3, c4, favorites, reviews, rs, rc, spend) = row
            var day = StoreInsights.Figures(date: date)
            day.views = views
            day.visitors = visitors
            day.impressions = .init(daily: i0, feed: i1, search: i2, near: i3, pick: i4)
            day.clicks = .init(daily: c0, feed: c1, search: c2, near: c3, pick: c4)
            day.favorites = favorites
            day.reviews = reviews
            day.ratingSum = rs
            day.ratingCount = rc
            day.spend = spend
            return day
        }
        let totals = days.reduce(StoreInsights.Figures()) { $0 + $1 }
        return StoreInsights(
            storeId: storeID, timeZone: facts.timeZone, days: days, totals: totals,
            promotion: try await promotion(storeID))
    }

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
