import Foundation

extension StoreView {
    /// The view read back from the JSON `write(to:)` wrote (a cached store's, `StoreCard`): what is computed when
    /// written (`openNow`, `closesAt`, `opensAt`, `couponCount`) is left out, dates are whole seconds and `adSpend`,
    /// `distanceMeters` and `couponWindows` are what the JSON says or nothing.
    package init(reading json: [UInt8]) throws {
        var reader = JSONReader(json)
        var id = "", name = "", description = "", address = "", managerId = "", managerName = ""
        var timeZone = StoreTimeZone.defaultName
        var category = CategoryRef(id: "", name: "")
        var imageUrls: [String] = []
        var rating = Rating(average: nil, count: 0, score: 0)
        var scores = Scores(taste: nil, environment: nil, service: nil)
        var pricePerPerson: Int?, adSpend: Int?, distanceMeters: Int?
        var dishes: [Dish] = []
        var notRecommendedCount = 0, favoriteCount = 0, version = 0
        var favorited = false, promoted = false
        var createdAt = Date(timeIntervalSince1970: 0), updatedAt = Date(timeIntervalSince1970: 0)
        var location: GeoPoint?
        var hours: WeeklyHours?
        try reader.object { reader, key in
            switch key {
            case "id": id = try reader.string()
            case "name": name = try reader.string()
            case "category":
                try reader.object { reader, key in
                    switch key {
                    case "id": category.id = try reader.string()
                    case "name": category.name = try reader.string()
                    default: try reader.skip()
                    }
                }
            case "description": description = try reader.string()
            case "address": address = try reader.string()
            case "managerId": managerId = try reader.string()
            case "managerName": managerName = try reader.string()
            case "imageUrls": try reader.array { imageUrls.append(try $0.string()) }
            case "rating":
                try reader.object { reader, key in
                    switch key {
                    case "average": rating.average = reader.null() ? nil : try reader.double()
                    case "count": rating.count = try reader.int()
                    case "score": rating.score = try reader.double()
                    default: try reader.skip()
                    }
                }
            case "scores":
                try reader.object { reader, key in
                    let value = reader.null() ? nil : try reader.double()
                    switch key {
                    case "taste": scores.taste = value
                    case "environment": scores.environment = value
                    case "service": scores.service = value
                    default: break
                    }
                }
            case "pricePerPerson": pricePerPerson = reader.null() ? nil : try reader.int()
            case "dishes":
                try reader.array { reader in
                    var dish = Dish(name: "", count: 0)
                    try reader.object { reader, key in
                        switch key {
                        case "name": dish.name = try reader.string()
                        case "count": dish.count = try reader.int()
                        default: try reader.skip()
                        }
                    }
                    dishes.append(dish)
                }
            case "notRecommendedCount": notRecommendedCount = try reader.int()
            case "favoriteCount": favoriteCount = try reader.int()
            case "favorited": favorited = try reader.bool()
            case "promoted": promoted = try reader.bool()
            case "createdAt": createdAt = try reader.date()
            case "updatedAt": updatedAt = try reader.date()
            case "version": version = try reader.int()
            case "adSpend": adSpend = reader.null() ? nil : try reader.int()
            case "distanceMeters": distanceMeters = reader.null() ? nil : try reader.int()
            case "timeZone": timeZone = try reader.string()
            case "location":
                guard !reader.null() else { break }
                var lat = 0.0, lng = 0.0
                try reader.object { reader, key in
                    switch key {
                    case "lat": lat = try reader.double()
                    case "lng": lng = try reader.double()
                    default: try reader.skip()
                    }
                }
                location = GeoPoint(lat: lat, lng: lng)
            case "hours":
                guard !reader.null() else { break }
                var ranges: [WeeklyHours.Range] = []
                try reader.array { reader in
                    var range = WeeklyHours.Range(day: 0, open: 0, close: 0)
                    try reader.object { reader, key in
                        switch key {
                        case "day": range.day = try reader.int()
                        case "open": range.open = try Self.minutes(try reader.string())
                        case "close": range.close = try Self.minutes(try reader.string())
                        default: try reader.skip()
                        }
                    }
                    ranges.append(range)
                }
                hours = try WeeklyHours(ranges)
            default: try reader.skip()
            }
        }
        guard reader.atEnd else { throw JSONReader.Malformed(offset: json.count) }
        self.init(
            id: id, name: name, category: category, description: description, address: address, managerId: managerId,
            managerName: managerName, imageUrls: imageUrls, rating: rating, scores: scores,
            pricePerPerson: pricePerPerson, dishes: dishes, notRecommendedCount: notRecommendedCount,
            favoriteCount: favoriteCount, favorited: favorited, promoted: promoted, createdAt: createdAt,
            updatedAt: updatedAt, version: version, adSpend: adSpend, location: location, hours: hours,
            timeZone: timeZone, distanceMeters: distanceMeters)
    }

    /// `"HH:MM"` as minutes after midnight (`WeeklyHours.clock`'s inverse).
    private static func minutes(_ clock: String) throws -> Int {
        let digits = clock.utf8.map { Int($0) - Int(UInt8(ascii: "0")) }
        guard digits.count == 5, digits[2] == Int(UInt8(ascii: ":")) - Int(UInt8(ascii: "0")),
            digits.indices.allSatisfy({ $0 == 2 || (0...9).contains(digits[$0]) })
        else { throw PlaceError.invalidHours("A time must be HH:MM.") }
        return (digits[0] * 10 + digits[1]) * 60 + digits[3] * 10 + digits[4]
    }
}
