/// Insights written directly: 366 days through `JSONEncoder` cost the server more than the query did.
extension StoreInsights: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("storeId"); json.string(storeId)
            json.key("timeZone"); json.string(timeZone)
            json.key("days"); json.array(days) { json, day in day.write(to: &json) }
            json.key("totals"); totals.write(to: &json)
            json.key("promotion"); promotion.write(to: &json)
        }
    }
}

extension StoreInsights.BySource: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            for source in InsightSource.allCases {
                json.key(escaping: source.rawValue)
                json.int(self[source])
            }
        }
    }
}

extension StoreInsights.Figures: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            if let date { json.key("date"); json.string(date) }
            json.key("views"); json.int(views)
            json.key("visitors"); json.int(visitors)
            json.key("impressions"); impressions.write(to: &json)
            json.key("clicks"); clicks.write(to: &json)
            json.key("clickThrough")
            json.object { json in
                for source in InsightSource.allCases {
                    json.key(escaping: source.rawValue)
                    json.double(clickThrough(source))
                }
            }
            json.key("favorites"); json.int(favorites)
            json.key("reviews"); json.int(reviews)
            json.key("ratingAverage"); json.double(ratingAverage)
            json.key("spend"); json.int(spend)
            json.key("costPerVisit"); json.double(costPerVisit)
            json.key("claims"); json.int(claims)
            json.key("redemptions"); json.int(redemptions)
            json.key("notRecommended"); json.int(notRecommended)
        }
    }
}

extension StoreInsights.Promotion: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("rank"); json.int(rank)
            json.key("adSpend"); json.int(adSpend)
            json.key("nextRankAmount"); json.int(nextRankAmount)
        }
    }
}

extension PlatformStats: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("timeZone"); json.string(timeZone)
            json.key("days"); json.array(days) { json, day in day.write(to: &json) }
            json.key("totals"); totals.write(to: &json)
        }
    }
}

extension PlatformStats.Day: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            if let date { json.key("date"); json.string(date) }
            json.key("activeUsers"); json.int(activeUsers)
            json.key("visitors"); json.int(visitors)
            json.key("reviews"); json.int(reviews)
            json.key("reportsOpened"); json.int(reportsOpened)
            json.key("reportsClosed"); json.int(reportsClosed)
            json.key("promotionRevenue"); json.int(promotionRevenue)
        }
    }
}
