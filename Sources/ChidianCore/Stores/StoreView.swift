import Foundation
import PostgresNIO

/// The public shape of a store. `adSpend` is present only for the store's manager and admins
/// (a nil value leaves the key out).
public struct StoreView: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var category: CategoryRef
    public var description: String
    public var address: String
    public var managerId: String
    public var managerName: String
    public var imageUrls: [String]
    public var rating: Rating
    /// The averages of the counted reviews' sub-ratings, each null while none gave one.
    public var scores: Scores
    /// 人均: the rounded average of the counted reviews' prices; null while none gave one.
    @Nullable public var pricePerPerson: Int?
    /// 推荐菜: up to 5 vocabulary dishes by how many live reviews mention them.
    public var dishes: [Dish]
    /// Its live reviews judged not recommended (issue #48): readable, listed apart, counted in nothing above.
    public var notRecommendedCount: Int = 0
    public var favoriteCount: Int
    public var favorited: Bool
    public var promoted: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var version: Int
    public var adSpend: Int?
    /// Where the store is (WGS-84), or nil.
    public var location: GeoPoint? = nil
    /// Its weekly schedule, or nil when unknown; `openNow` is computed from it when written, never cached.
    public var hours: WeeklyHours? = nil
    /// The IANA zone its hours are read in.
    public var timeZone: String = StoreTimeZone.defaultName
    /// How far from the `near` of the request, in whole metres; nil (left out) without one.
    public var distanceMeters: Int? = nil
    /// When each of its coupons with stock left runs (`startsAt ..< endsAt`, not yet ended when read):
    /// `couponCount` is computed from them when written, as `openNow` is from the hours.
    public var couponWindows: [Range<Date>] = []

    /// Its live coupons with stock left at `date`.
    public func couponCount(at date: Date) -> Int {
        couponWindows.reduce(0) { $0 + ($1.contains(date) ? 1 : 0) }
    }

    /// The schedule's state at `date` in the store's zone; nil without hours.
    public func status(at date: Date) -> WeeklyHours.Status? {
        hours?.status(at: date, in: StoreTimeZone.zone(timeZone))
    }

    public struct CategoryRef: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct Dish: Codable, Sendable, Equatable {
        public var name: String
        public var count: Int
    }

    public struct Scores: Codable, Sendable, Equatable {
        @Nullable public var taste: Double?
        @Nullable public var environment: Double?
        @Nullable public var service: Double?
    }

    /// `average` is null without reviews; `score` is the Bayesian average of migration 002 (prior 3.5 over 5 reviews).
    public struct Rating: Codable, Sendable, Equatable {
        @Nullable public var average: Double?
        public var count: Int
        public var score: Double
    }
}

/// `StoreView` read back (here: the wrapped `pricePerPerson`'s storage is private to this file) from its JSON, as clients and the tests read it. What is computed when written (`openNow`,
/// `closesAt`, `opensAt`) is not kept: `status(at:)` computes it again from `hours`.
extension StoreView: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys) throws -> T { try container.decode(T.self, forKey: key) }
        id = try value(.id)
        name = try value(.name)
        category = try value(.category)
        description = try value(.description)
        address = try value(.address)
        managerId = try value(.managerId)
        managerName = try value(.managerName)
        imageUrls = try value(.imageUrls)
        rating = try value(.rating)
        scores = try value(.scores)
        _pricePerPerson = Nullable(wrappedValue: try container.decodeIfPresent(Int.self, forKey: .pricePerPerson))
        dishes = try value(.dishes)
        notRecommendedCount = try value(.notRecommendedCount)
        favoriteCount = try value(.favoriteCount)
        favorited = try value(.favorited)
        promoted = try value(.promoted)
        createdAt = try value(.createdAt)
        updatedAt = try value(.updatedAt)
        version = try value(.version)
        adSpend = try container.decodeIfPresent(Int.self, forKey: .adSpend)
        location = try container.decodeIfPresent([String: Double].self, forKey: .location).flatMap { point in
            point["lat"].flatMap { lat in point["lng"].map { GeoPoint(lat: lat, lng: $0) } }
        }
        let hours = try container.decodeIfPresent(JSONValue.self, forKey: .hours)
        self.hours = try hours.flatMap { $0 == .null ? nil : try WeeklyHours.parse($0) }
        timeZone = try value(.timeZone)
        distanceMeters = try container.decodeIfPresent(Int.self, forKey: .distanceMeters)
    }
}

/// A category with the number of live (non-archived) stores in it.
public struct CategoryView: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var storeCount: Int
}

/// One promotion purchase. `adSpend` (the store's total right after it) is set only in the answer to the purchase.
public struct PromotionView: Encodable, Sendable, Equatable {
    public var id: String
    public var storeId: String
    public var amount: Int
    public var createdAt: Date
    public var adSpend: Int?
}
