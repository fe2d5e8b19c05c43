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

/// Store list orders.
public enum StoreSort: String, Sendable {
    case rating, newest, name, popular, price
}

/// Store review list orders.
public enum CommentSort: String, Sendable {
    case newest, rating, helpful
}
