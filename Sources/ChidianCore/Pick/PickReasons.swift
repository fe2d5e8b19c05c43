import Foundation

/// One reason a store was picked, in words a person reads.
package struct PickReason: Sendable, Equatable, Codable {
    package enum Kind: String, Sendable, Codable, CaseIterable {
        case interest, distance, open, price, rating, popular, explore, quiet
    }

    package var kind: Kind
    package var text: String
}

/// The reasons of a pick, in the viewer's language (Chinese unless the request prefers English):
/// 你常看火锅 · 800 m · 营业到02:00 · 人均 ¥97 · 4.6 分.
enum PickReasons {
    /// What the reasons say of the chosen store: from its view, or from its cached card without reading the JSON
    /// back (a tenth of a pick's server time went to that).
    struct Facts {
        var favorited: Bool
        var categoryName: String
        var distanceMeters: Int?
        var status: WeeklyHours.Status?
        var pricePerPerson: Int?
        var ratingAverage: Double?
        var favoriteCount: Int

        init(_ store: StoreView, at now: Date) {
            favorited = store.favorited
            categoryName = store.category.name
            distanceMeters = store.distanceMeters
            status = store.status(at: now)
            pricePerPerson = store.pricePerPerson
            ratingAverage = store.rating.average
            favoriteCount = store.favoriteCount
        }

        init(_ card: StoreCard, favorited: Bool, near point: GeoPoint?, at now: Date) {
            self.favorited = favorited
            categoryName = card.categoryName
            distanceMeters = card.meters(from: point)
            status = card.status(at: now)
            pricePerPerson = card.pricePerPerson
            ratingAverage = card.ratingAverage
            favoriteCount = card.favoriteCount
        }
    }

    static func reasons(
        for store: Facts, interest: Double, explored: Bool, quiet: Bool = false, english: Bool
    ) -> [PickReason] {
        var reasons: [PickReason] = []
        if store.favorited {
            reasons.append(.init(kind: .interest, text: english ? "In your favorites" : "你收藏过"))
        } else if interest >= 0.5 {
            let name = store.categoryName
            reasons.append(.init(kind: .interest, text: english ? "You often look at \(name)" : "你常看\(name)"))
        }
        if explored {
            reasons.append(.init(kind: .explore, text: english ? "Something different" : "换换口味"))
        }
        if let meters = store.distanceMeters {
            reasons.append(.init(kind: .distance, text: distance(meters)))
        }
        if let status = store.status, status.open {
            let text: String
            if let closes = status.closesAt {
                text = english ? "Open until \(closes.time)" : "营业到\(closes.time)"
            } else {
                text = english ? "Open 24 hours" : "24 小时营业"
            }
            reasons.append(.init(kind: .open, text: text))
        }
        if quiet {
            reasons.append(.init(kind: .quiet, text: english ? "Usually quiet now" : "现在人少"))
        }
        if let price = store.pricePerPerson {
            reasons.append(.init(kind: .price, text: english ? "¥\(price) per person" : "人均 ¥\(price)"))
        }
        if let average = store.ratingAverage {
            reasons.append(.init(kind: .rating, text: english ? "Rated \(rating(average))" : "\(rating(average)) 分"))
        }
        if store.favoriteCount > 0 {
            let count = store.favoriteCount
            reasons.append(.init(kind: .popular, text: english ? "\(count) favorites" : "\(count) 人收藏"))
        }
        if reasons.isEmpty {
            reasons.append(.init(kind: .explore, text: english ? "Something different" : "换换口味"))
        }
        return reasons
    }

    /// "800 m" under a kilometre (to the 10 m), else "1.2 km".
    package static func distance(_ meters: Int) -> String {
        if meters < 1000 { return "\(max(10, (meters + 5) / 10 * 10)) m" }
        let tenths = (meters + 50) / 100
        return "\(tenths / 10).\(tenths % 10) km"
    }

    package static func rating(_ average: Double) -> String {
        let tenths = Int((average * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
