import Foundation

/// `GET /v1/stores/{id}/insights`: a store's days and their totals, and where it stands in 每日促销.
public struct StoreInsights: Sendable {
    /// A count per source, in `InsightSource.allCases` order.
    public struct BySource: Sendable, Equatable {
        private var counts = [Int](repeating: 0, count: InsightSource.allCases.count)

        public init() {}

        /// Counts in `InsightSource.allCases` order.
        package init(_ counts: some Collection<Int>) {
            precondition(counts.count == InsightSource.allCases.count)
            self.counts = Array(counts)
        }

        public subscript(source: InsightSource) -> Int {
            get { counts[Int(source.index)] }
            set { counts[Int(source.index)] = newValue }
        }

        public var total: Int { counts.reduce(0, +) }

        package static func + (a: Self, b: Self) -> Self { Self(zip(a.counts, b.counts).map(+)) }
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
        /// Reviews posted that day and recommended; `notRecommended` those judged not recommended (issue #48),
        /// which count in nothing else here.
        public var reviews = 0
        public var notRecommended = 0
        /// The sum and count of the day's ratings, for the average and the totals' average.
        var ratingSum = 0
        package var ratingCount = 0
        public var spend = 0
        /// Coupons of the store claimed, and claims redeemed at its tables, that day.
        public var claims = 0
        public var redemptions = 0

        public var ratingAverage: Double? { ratingCount == 0 ? nil : Double(ratingSum) / Double(ratingCount) }
        /// Clicks over impressions from `source`; nil where nothing was shown.
        public func clickThrough(_ source: InsightSource) -> Double? {
            impressions[source] == 0 ? nil : Double(clicks[source]) / Double(impressions[source])
        }
        /// Spend over the day's views (yuan per visit); null without views.
        public var costPerVisit: Double? { views == 0 ? nil : Double(spend) / Double(views) }

        package static func + (a: Self, b: Self) -> Self {
            var sum = Figures()
            sum.views = a.views + b.views
            sum.visitors = a.visitors + b.visitors
            sum.impressions = a.impressions + b.impressions
            sum.clicks = a.clicks + b.clicks
            sum.favorites = a.favorites + b.favorites
            sum.reviews = a.reviews + b.reviews
            sum.notRecommended = a.notRecommended + b.notRecommended
            sum.ratingSum = a.ratingSum + b.ratingSum
            sum.ratingCount = a.ratingCount + b.ratingCount
            sum.spend = a.spend + b.spend
            sum.claims = a.claims + b.claims
            sum.redemptions = a.redemptions + b.redemptions
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
        header += ["favorites", "reviews", "not_recommended", "rating_average", "spend", "cost_per_visit"]
        header += ["claims", "redemptions"]
        var lines = [header.joined(separator: ",")]
        for day in days {
            var fields = [day.date ?? "", String(day.views), String(day.visitors)]
            fields += InsightSource.allCases.map { String(day.impressions[$0]) }
            fields += InsightSource.allCases.map { String(day.clicks[$0]) }
            fields += [String(day.favorites), String(day.reviews), String(day.notRecommended)]
            fields += [day.ratingAverage.map { String(format: "%.2f", $0) } ?? ""]
            fields += [String(day.spend), day.costPerVisit.map { String(format: "%.2f", $0) } ?? ""]
            fields += [String(day.claims), String(day.redemptions)]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
