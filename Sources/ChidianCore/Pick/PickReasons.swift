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
    package static func reasons(
        for store: StoreView, interest: Double, explored: Bool, quiet: Bool = false, at now: Date, english: Bool
    ) -> [PickReason] {
        var reasons: [PickReason] = []
        if store.favorited {
            reasons.append(.init(kind: .interest, text: english ? "In your favorites" : "你收藏过"))
        } else if interest >= 0.5 {
            let name = store.category.name
            reasons.append(.init(kind: .interest, text: english ? "You often look at \(name)" : "你常看\(name)"))
        }
        if explored {
            reasons.append(.init(kind: .explore, text: english ? "Something different" : "换换口味"))
        }
        if let meters = store.distanceMeters {
            reasons.append(.init(kind: .distance, text: distance(meters)))
        }
        if let status = store.status(at: now), status.open {
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
        if let average = store.rating.average {
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
