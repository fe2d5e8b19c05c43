import ChidianCore
import Foundation

/// The manager's and the admin's charts: which figures, in which colours, with which words.
enum InsightCharts {
    static let periods = [30, 90]

    /// `?days=30|90` (anything else: 30).
    static func period(_ raw: Substring?) -> Int {
        raw.flatMap { Int($0) }.flatMap { periods.contains($0) ? $0 : nil } ?? 30
    }

    static func money(_ value: Double) -> String { "¥" + String(Int(value.rounded())) }

    static func store(_ insights: StoreInsights, language: Language) -> [TemplateFields] {
        let days = insights.days
        let dates = days.compactMap(\.date)
        let t = language.text
        let traffic = SVGChart(
            id: "chart-traffic", title: t("chartTraffic"), dates: dates,
            series: [
                .init(label: t("views"), values: days.map { Double($0.views) }, kind: .line, colour: 0),
                .init(label: t("visitors"), values: days.map { Double($0.visitors) }, kind: .line, colour: 1),
            ])
        let clicks = SVGChart(
            id: "chart-clicks", title: t("chartClicks"), dates: dates,
            series: InsightSource.allCases.enumerated().map { index, source in
                .init(
                    label: t("source." + source.rawValue), values: days.map { Double($0.clicks[source]) }, kind: .bar,
                    colour: index)
            })
        let rating = SVGChart(
            id: "chart-rating", title: t("chartRating"), dates: dates,
            series: [
                .init(
                    label: t("ratingAverage"), values: days.map(\.ratingAverage), kind: .line, colour: 2,
                    format: { String(format: "%.1f", $0) }),
                .init(
                    label: t("reviewsPosted"), values: days.map { Double($0.reviews) }, kind: .bar, colour: 5,
                    secondary: true),
                .init(
                    label: t("notRecommendedPosted"), values: days.map { Double($0.notRecommended) }, kind: .bar,
                    colour: 3, secondary: true),
            ], fixedMax: 5)
        let spend = SVGChart(
            id: "chart-spend", title: t("chartSpend"), dates: dates,
            series: [
                .init(label: t("spend"), values: days.map { Double($0.spend) }, kind: .bar, colour: 3, format: money),
                .init(
                    label: t("views"), values: days.map { Double($0.views) }, kind: .line, colour: 0, secondary: true),
            ])
        let coupons = SVGChart(
            id: "chart-coupons", title: t("chartCoupons"), dates: dates,
            series: [
                .init(label: t("couponClaims"), values: days.map { Double($0.claims) }, kind: .bar, colour: 4),
                .init(
                    label: t("couponRedemptions"), values: days.map { Double($0.redemptions) }, kind: .line, colour: 2),
            ])
        return [traffic, clicks, rating, spend, coupons].map(\.table)
    }

    static func platform(_ stats: PlatformStats, language: Language) -> [TemplateFields] {
        let days = stats.days
        let dates = days.compactMap(\.date)
        let t = language.text
        let people = SVGChart(
            id: "chart-people", title: t("chartPeople"), dates: dates,
            series: [
                .init(label: t("activeUsers"), values: days.map { Double($0.activeUsers) }, kind: .line, colour: 0),
                .init(label: t("visitors"), values: days.map { Double($0.visitors) }, kind: .line, colour: 1),
            ])
        let content = SVGChart(
            id: "chart-content", title: t("chartContent"), dates: dates,
            series: [
                .init(label: t("reviewsPosted"), values: days.map { Double($0.reviews) }, kind: .bar, colour: 5),
                .init(label: t("reportsOpened"), values: days.map { Double($0.reportsOpened) }, kind: .line, colour: 3),
                .init(label: t("reportsClosed"), values: days.map { Double($0.reportsClosed) }, kind: .line, colour: 2),
            ])
        let revenue = SVGChart(
            id: "chart-revenue", title: t("chartRevenue"), dates: dates,
            series: [
                .init(
                    label: t("promotionRevenue"), values: days.map { Double($0.promotionRevenue) }, kind: .bar,
                    colour: 3, format: money)
            ])
        return [people, content, revenue].map(\.table)
    }

    /// "第 3 位 · 再投 ¥400 升到第 2 位", or the first place, or how to enter.
    static func rankLine(_ promotion: StoreInsights.Promotion, language: Language) -> String {
        guard let rank = promotion.rank else {
            return language.text("rankNone").replacingOccurrences(
                of: "{amount}", with: "\(promotion.nextRankAmount ?? 1)")
        }
        guard let next = promotion.nextRankAmount else {
            return language.text("rankFirst").replacingOccurrences(of: "{rank}", with: "\(rank)")
        }
        return language.text("rankLine").replacingOccurrences(of: "{rank}", with: "\(rank)")
            .replacingOccurrences(of: "{amount}", with: "\(next)").replacingOccurrences(
                of: "{next}", with: "\(rank - 1)")
    }

    /// The totals shown above the charts.
    static func storeTotals(_ totals: StoreInsights.Figures, language: Language) -> [TemplateFields] {
        let t = language.text
        return [
            (t("views"), String(totals.views)), (t("visitors"), String(totals.visitors)),
            (t("impressions"), String(totals.impressions.total)), (t("clicksTotal"), String(totals.clicks.total)),
            (t("favoritesAdded"), String(totals.favorites)), (t("reviewsPosted"), String(totals.reviews)),
            (t("notRecommendedPosted"), String(totals.notRecommended)),
            (t("ratingAverage"), totals.ratingAverage.map { String(format: "%.1f", $0) } ?? "–"),
            (t("spend"), money(Double(totals.spend))),
            (t("costPerVisit"), totals.costPerVisit.map { String(format: "¥%.2f", $0) } ?? "–"),
        ].map { ["label": $0.0, "value": $0.1] as TemplateFields }
    }

    static func platformTotals(_ totals: PlatformStats.Day, language: Language) -> [TemplateFields] {
        let t = language.text
        return [
            (t("activeUsers"), String(totals.activeUsers)), (t("visitors"), String(totals.visitors)),
            (t("reviewsPosted"), String(totals.reviews)), (t("reportsOpened"), String(totals.reportsOpened)),
            (t("reportsClosed"), String(totals.reportsClosed)),
            (t("promotionRevenue"), money(Double(totals.promotionRevenue))),
        ].map { ["label": $0.0, "value": $0.1] as TemplateFields }
    }

    /// The 30/90-day links of a page at `path`.
    static func periodLinks(path: String, current: Int, language: Language) -> [TemplateFields] {
        periods.map { days in
            [
                "href": "\(path)?days=\(days)", "current": days == current,
                "label": language.text("lastDays").replacingOccurrences(of: "{days}", with: "\(days)"),
            ] as TemplateFields
        }
    }
}
