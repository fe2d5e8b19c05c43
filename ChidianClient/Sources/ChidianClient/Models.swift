import Foundation

// The API's objects as an app uses them. The generated types stay internal (generated public code warns about
// unused `public import`s on Swift before 6.4), so these public mirrors are filled from them by re-encoding:
// the generated decoder has already checked every field against the document.

/// Copies a generated value into its public mirror (same JSON shape).
func mirror<T: Decodable>(_ value: some Encodable, as type: T.Type = T.self) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
}

public struct User: Codable, Sendable, Hashable, Identifiable {
    public enum Role: String, Codable, Sendable { case user, manager, admin }
    public var id: String
    public var name: String
    public var role: Role
    /// An image path (`/v1/images/{id}`), or nil.
    public var avatarUrl: String?
    public var createdAt: Date
    /// Visible reviews written (notices not counted).
    public var reviewCount: Int
}

public struct CategoryRef: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
}

public struct Category: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    /// Live (not archived) stores.
    public var storeCount: Int
}

public struct Store: Codable, Sendable, Hashable, Identifiable {
    public struct Rating: Codable, Sendable, Hashable {
        /// The plain average; nil without reviews.
        public var average: Double?
        public var count: Int
        /// The Bayesian average `sort: .rating` orders by.
        public var score: Double
    }
    /// 口味 / 环境 / 服务 averages, each nil while no review gave one.
    public struct Scores: Codable, Sendable, Hashable {
        public var taste: Double?
        public var environment: Double?
        public var service: Double?
    }
    /// 推荐菜: a dish and how many reviews mention it.
    public struct Dish: Codable, Sendable, Hashable {
        public var name: String
        public var count: Int
    }
    public var id: String
    public var name: String
    public var category: CategoryRef
    public var description: String
    public var address: String
    public var managerId: String
    public var managerName: String
    /// Image paths (`/v1/images/{id}`), the carousel in order.
    public var imageUrls: [String]
    public var rating: Rating
    public var scores: Scores
    /// 人均.
    public var pricePerPerson: Int?
    public var dishes: [Dish]
    /// Its reviews judged not recommended: listed apart (`comments(store:recommended:)`), counted in nothing here.
    public var notRecommendedCount: Int
    public var favoriteCount: Int
    /// Whether the signed-in viewer favorited it.
    public var favorited: Bool
    public var promoted: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// What `If-Match` carries when changing it.
    public var version: Int
    /// Total ad spend: only for the store's manager and admins.
    public var adSpend: Int?
    /// Where it is; nil when unknown (then it is in no near-me list or pick with `near`).
    public var location: Location?
    /// The weekly schedule in `timeZone`; nil when unknown.
    public var hours: [Hours]?
    /// An IANA zone name (`Asia/Shanghai` unless the manager set another).
    public var timeZone: String
    /// Whether it is open now in its zone; nil without `hours`.
    public var openNow: Bool?
    /// When open: when it next closes (nil when open round the clock).
    public var closesAt: WeekTime?
    /// When closed: when it next opens.
    public var opensAt: WeekTime?
    /// Great-circle metres from the list's `near`; only in lists asked with `near`.
    public var distanceMeters: Int?
}

extension Store {
    /// A point in WGS-84 degrees, as a phone's location reports it.
    public struct Location: Codable, Sendable, Hashable {
        public var lat: Double
        public var lng: Double
        public init(lat: Double, lng: Double) {
            self.lat = lat
            self.lng = lng
        }

        /// The `near` query form, `LAT,LNG` in plain decimals (the document's pattern has no exponents).
        var query: String { String(format: "%.6f,%.6f", lat, lng) }
    }

    /// One opening range: `open` to `close` ("HH:MM") on `day` (1 = Monday … 7 = Sunday) in the store's zone. A
    /// `close` not after `open` ends the next day (17:00–02:00); equal times are 24 hours.
    public struct Hours: Codable, Sendable, Hashable {
        public var day: Int
        public var open: String
        public var close: String
        public init(day: Int, open: String, close: String) {
            self.day = day
            self.open = open
            self.close = close
        }
    }

    /// A moment of the week in the store's zone: `day` (1 = Monday … 7 = Sunday) and `time` ("HH:MM").
    public struct WeekTime: Codable, Sendable, Hashable {
        public var day: Int
        public var time: String
    }
}

public struct Comment: Codable, Sendable, Hashable, Identifiable {
    public enum Kind: String, Codable, Sendable { case review, notice }
    public struct StoreSummary: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public var category: CategoryRef
        public var imageUrl: String?
    }
    public struct Author: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
        public var avatarUrl: String?
    }
    /// A review's sub-ratings, each 1–5 or nil.
    public struct Scores: Codable, Sendable, Hashable {
        public var taste: Int?
        public var environment: Int?
        public var service: Int?
        public init(taste: Int? = nil, environment: Int? = nil, service: Int? = nil) {
            self.taste = taste
            self.environment = environment
            self.service = service
        }
    }
    /// The store's answer (商家回复).
    public struct Reply: Codable, Sendable, Hashable {
        public struct Author: Codable, Sendable, Hashable {
            public var id: String
            public var name: String
        }
        public var body: String
        public var author: Author
        public var createdAt: Date
        public var updatedAt: Date
    }
    public var id: String
    public var kind: Kind
    public var storeId: String
    public var store: StoreSummary
    public var author: Author
    /// 1–5 for reviews, nil for notices.
    public var rating: Int?
    public var scores: Scores?
    public var pricePerPerson: Int?
    public var body: String
    public var imageUrls: [String]
    public var likeCount: Int
    /// Whether the signed-in viewer liked it.
    public var liked: Bool
    /// False when the review is judged not recommended (readable, but counted in none of its store's figures);
    /// always true on notices.
    public var recommended: Bool
    public var reply: Reply?
    public var createdAt: Date
    public var updatedAt: Date
    /// What `If-Match` carries when editing or deleting it.
    public var version: Int
}

/// An uploaded image (not `Image`, which SwiftUI apps already have).
public struct UploadedImage: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    /// `/v1/images/{id}`.
    public var url: String
    public var contentType: String
    public var width: Int
    public var height: Int
    public var bytes: Int
}

public struct Promotion: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var storeId: String
    public var amount: Int
    public var createdAt: Date
    /// The store's total right after this purchase (in the answer to the purchase only).
    public var adSpend: Int?
}

/// A page of the featured feed.
public struct FeedPage: Codable, Sendable, Hashable {
    public struct CategoryScore: Codable, Sendable, Hashable, Identifiable {
        public var id: String
        public var name: String
        public var score: Double
    }
    public struct Personalization: Codable, Sendable, Hashable {
        /// The viewer's categories with a score above zero, highest first.
        public var categories: [CategoryScore]
    }
    public var items: [Comment]
    /// The `cursor` of the next page; nil on the last.
    public var nextCursor: String?
    public var personalization: Personalization
}

public struct SearchResult: Codable, Sendable, Hashable {
    public struct Match: Codable, Sendable, Hashable {
        public enum Field: String, Codable, Sendable { case name, category, dish }
        public var field: Field
        public var text: String
        /// For `.dish`: how many of the store's reviews contain it.
        public var count: Int?
    }
    public var store: Store
    public var matches: [Match]
}

public struct Interest: Codable, Sendable, Hashable {
    public var category: CategoryRef
    public var score: Double
    public var clicks: Int
}

/// The image types the server stores; the bytes decide, this labels the upload.
public enum ImageType: String, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"
    case gif = "image/gif"
}

/// Who a new account is.
public enum Role: String, Sendable {
    case user, manager
}

/// Store list orders; `.distance` needs `near`.
public enum StoreSort: String, Sendable {
    case rating, newest, name, popular, price, distance
}

/// Store review list orders.
public enum CommentSort: String, Sendable {
    case newest, rating, helpful
}

/// 今天吃点啥: one store for now, why, and up to two alternatives (all distinct).
public struct Pick: Codable, Sendable, Hashable {
    public struct Reason: Codable, Sendable, Hashable {
        public enum Kind: String, Codable, Sendable {
            case interest, distance, open, price, rating, popular, explore, quiet
        }
        public var kind: Kind
        /// For people, in the viewer's language.
        public var text: String
    }
    public var store: Store
    /// Never empty.
    public var reasons: [Reason]
    public var alternatives: [Store]
}

/// How busy a store usually is: each weekday's 24 hours as shares (0–100) of its busiest hour, from the views of
/// the last 8 weeks. `days` is empty and `now` nil until 200 views are known.
public struct PopularTimes: Codable, Sendable, Hashable {
    public struct Day: Codable, Sendable, Hashable {
        /// 1 = Monday … 7 = Sunday, in the store's time zone.
        public var day: Int
        public var hours: [Int]
    }
    public var timeZone: String
    public var days: [Day]
    /// The current local hour of today as a share of the peak.
    public var now: Int?
}

/// A report of a comment, as admins see it.
public struct Report: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var commentId: String
    public var reporterId: String
    public var reason: ChidianClient.ReportReason
    public var note: String?
    public var createdAt: Date
}

/// What an admin does with a reported (or any) comment.
public enum ModerationAction: String, Codable, Sendable, CaseIterable {
    /// Hides it from every list and aggregate and closes its reports.
    case hide
    /// Shows a hidden comment again.
    case restore
    /// Closes its reports and leaves it visible.
    case dismiss
}

/// A comment in the admins' queue with its reports.
/// A review in the admins' trust queue: what the judge saw in it and how suspicious it is.
public struct TrustItem: Codable, Sendable, Hashable {
    public struct Signal: Codable, Sendable, Hashable {
        public var kind: String
        public var detail: String
    }
    public var comment: Comment
    public var signals: [Signal]
    public var score: Double
}

public struct ModerationItem: Codable, Sendable, Hashable {
    public enum Status: String, Codable, Sendable { case open, closed }
    public var comment: Comment
    public var reports: [Report]
    public var reportCount: Int
    public var status: Status
    public var hidden: Bool
}

/// One admin decision, as the moderation log keeps it.
public struct ModerationLogEntry: Codable, Sendable, Hashable {
    /// A moderation action, or an admin's verdict on a review.
    public enum Action: String, Codable, Sendable, CaseIterable {
        case hide, restore, dismiss, recommend
        case notRecommend = "not_recommend"
    }
    public var commentId: String
    public var action: Action
    /// Nil when the admin's account is gone.
    public var adminId: String?
    public var note: String?
    public var createdAt: Date
}

/// An image's bytes as the server stores them.
public struct DownloadedImage: Sendable, Hashable {
    public var data: Data
    public var type: ImageType
}

/// `/ready`: the database pools as the server last saw them.
public struct Readiness: Codable, Sendable, Hashable {
    public struct Pool: Codable, Sendable, Hashable {
        public enum Role: String, Codable, Sendable { case primary, replica }
        public var name: String
        public var role: Role
        public var healthy: Bool
        public var lagSeconds: Double?
        public var replayLSN: String?
        /// Why a replica serves no reads.
        public var problem: String?
    }
    /// `ready`.
    public var status: String
    /// The primary, then each replica.
    public var pools: [Pool]
}
