import Foundation

/// `StoreView` through `JSONEncoder`: the same keys and values `write(to:)` gives (`JSONWriterTests` compares),
/// including what is computed when written (`openNow`, `closesAt`, `opensAt`).
extension StoreView {
    package enum CodingKeys: String, CodingKey {
        case id, name, category, description, address, managerId, managerName, imageUrls, rating, scores
        case pricePerPerson, dishes, notRecommendedCount, favoriteCount, favorited, promoted, createdAt, updatedAt,
            version
        case location, hours, timeZone, openNow, closesAt, opensAt, couponCount, distanceMeters, adSpend
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(category, forKey: .category)
        try container.encode(description, forKey: .description)
        try container.encode(address, forKey: .address)
        try container.encode(managerId, forKey: .managerId)
        try container.encode(managerName, forKey: .managerName)
        try container.encode(imageUrls, forKey: .imageUrls)
        try container.encode(rating, forKey: .rating)
        try container.encode(scores, forKey: .scores)
        try container.encode(pricePerPerson, forKey: .pricePerPerson)
        try container.encode(dishes, forKey: .dishes)
        try container.encode(notRecommendedCount, forKey: .notRecommendedCount)
        try container.encode(favoriteCount, forKey: .favoriteCount)
        try container.encode(favorited, forKey: .favorited)
        try container.encode(promoted, forKey: .promoted)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(version, forKey: .version)
        try container.encode(location.map { ["lat": $0.lat, "lng": $0.lng] }, forKey: .location)
        try container.encode(
            hours.map { hours in
                hours.ranges.map {
                    HoursRange(day: $0.day, open: WeeklyHours.clock($0.open), close: WeeklyHours.clock($0.close))
                }
            }, forKey: .hours)
        try container.encode(timeZone, forKey: .timeZone)
        let status = self.status(at: ServerClock.now())
        try container.encode(status?.open, forKey: .openNow)
        try container.encode(status?.closesAt.map(MomentJSON.init), forKey: .closesAt)
        try container.encode(status?.opensAt.map(MomentJSON.init), forKey: .opensAt)
        try container.encode(couponCount(at: ServerClock.now()), forKey: .couponCount)
        try container.encodeIfPresent(distanceMeters, forKey: .distanceMeters)
        try container.encodeIfPresent(adSpend, forKey: .adSpend)
    }

    private struct HoursRange: Encodable {
        var day: Int
        var open: String
        var close: String
    }

    private struct MomentJSON: Encodable {
        var day: Int
        var time: String

        init(_ moment: WeeklyHours.Moment) {
            day = moment.day
            time = moment.time
        }
    }
}
