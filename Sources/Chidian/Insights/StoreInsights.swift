import Foundation

/// `GET /v1/stores/{id}/insights`: a store's days and their totals, and where it stands in 每日促销.
public struct StoreInsights: Sendable {
    public struct BySource: Sendable, Equatable {
        public var daily = 0, feed = 0, search = 0, near = 0, pick = 0

        public subscript(source: InsightSource) -> Int {
            get {
                switch source {
                case .daily: daily
                case .feed: feed
                case .search: search
                case .near: near
                case .pick: pick
                }
            }
            set {
                switch source {
                case .daily: daily = newValue
                case .feed: feed = newValue
                case .search: search = newValue
                case .near: near = newValue
                case .pick: pick = newValue
                }
            }
        }

        public var total: Int { daily + feed + search + near + pick }

        static func + (a: Self, b: Self) -> Self {
            Self(
                daily: a.daily + b.daily, feed: a.feed + b.feed, search: a.search + b.search, near: a.near + b.near,
                pick: a.pick + b.pick)
        }
    }

    /// Clicks over impressions per source; null where nothing was shown.
    public struct Rates: Sendable, Equatable {
        public var daily, feed, search, near, pick: Double?

        init(clicks: BySource, impressions: BySource) {
            func rate(_ source: InsightSource) -> Double? {
                impressions[source] == 0 ? nil : Double(clicks[source]) / Double(impressions[source])
            }
            (daily, feed, search, near, pick) = (rate(.daily), rate(.feed), rate(.search), rate(.near), rate(.pick))
        }

    }

    /// One day, or the totals of the range (`date` nil). `visitors` of the totals is the sum of the days'
    /// (someone who came on two days counts twice).
    public struct Figures: Sendable, Equatable {
        public var date: String?
        public var views = 0
        public var visitors = 0
        public var impressions = BySource()
        public var clicks = BySource()
        public var favorites = 0
        public var reviews = 0
        /// The sum and count of the day's ratings, for the average and the totals' average.
        var ratingSum = 0
        var ratingCount = 0
        public var spend = 0

        public var ratingAverage: Double? { ratingCount == 0 ? nil : Double(ratingSum) / Double(ratingCount) }
        public var clickThrough: Rates { Rates(clicks: clicks, impressions: impressions) }
        /// Spend over the day's views (yuan per visit); null without views.
        public var costPerVisit: Double? { views == 0 ? nil : Double(spend) / Double(views) }

        static func + (a: Self, b: Self) -> Self {
            var sum = Figures()
            sum.views = a.views + b.views
            sum.visitors = a.visitors + b.visitors
            sum.impressions = a.impressions + b.impressions
            sum.clicks = a.clicks + b.clicks
            sum.favorites = a.favorites + b.favorites
            sum.reviews = a.reviews + b.reviews
            sum.ratingSum = a.ratingSum + b.ratingSum
            sum.ratingCount = a.ratingCount + b.ratingCount
            sum.spend = a.spend + b.spend
            return sum
        }

    }

    /// The store's place in 每日促销 (1 = first; null without spend or when archived) and the smallest purchase
    /// that lifts it one place (null at first place).
    public struct Promotion: Sendable, Equatable {
        public var rank: Int?
        public var adSpend: Int
        public var nextRankAmount: Int?

    }

    public var storeId: String
    public var timeZone: String
    public var days: [Figures]
    public var totals: Figures
    public var promotion: Promotion

    /// One line per day, with a header line; sources spelled out as columns.
    public var csv: String {
        let sources = InsightSource.allCases.map(\.rawValue)
        var header = ["date", "views", "visitors"]
        header += sources.map { "impressions_\($0)" } + sources.map { "clicks_\($0)" }
        header += ["favorites", "reviews", "rating_average", "spend", "cost_per_visit"]
        var lines = [header.joined(separator: ",")]
        for day in days {
            var fields = [day.date ?? "", String(day.views), String(day.visitors)]
            fields += InsightSource.allCases.map { String(day.impressions[$0]) }
            fields += InsightSource.allCases.map { String(day.clicks[$0]) }
            fields += [String(day.favorites), String(day.reviews)]
            fields += [day.ratingAverage.map { String(format: "%.2f", $0) } ?? ""]
            fields += [String(day.spend), day.costPerVisit.map { String(format: "%.2f", $0) } ?? ""]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
