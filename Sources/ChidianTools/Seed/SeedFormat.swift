import ChidianCore
import Foundation

/// The original app's JSON files (`userInfo.json`, `store.json`, `comment.json`), field for field.
/// Fields after the original ones are optional additions written by `chidian export` so that a seed of an
/// export reproduces the same API views; the original's files simply do not have them.
public enum SeedFormat {
    public static let usersFile = "userInfo.json"
    public static let storesFile = "store.json"
    public static let commentsFile = "comment.json"
    /// Optional: every category, including those without stores (an export writes it).
    public static let categoriesFile = "categories.json"
    public static let imagesFolder = "images"
    public static let imageExtensions = ["jpg", "jpeg", "png", "webp", "gif"]

    /// A decoder for these files: timestamps are RFC 3339, with or without fractional seconds.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = SeedDates.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not an RFC 3339 timestamp: \(text)")
            }
            return date
        }
        return decoder
    }

    public struct User: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        /// The password: plain text (hashed on the way in) or a bcrypt hash starting `$2`.
        public var keyword: String
        /// "user", "manager" or "admin".
        public var type: String
        // Additions.
        public var avatar: String?
        public var createdAt: Date?
    }

    public struct Store: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var imageName: [String]
        /// A category name; created if new.
        public var category: String
        /// The manager's user id.
        public var manager: String
        /// The ad spend total.
        public var sumCost: Int
        /// Users who favorited the store; unknown ids are skipped with a warning.
        public var staredUserId: [String]
        // Additions.
        public var categoryId: String?
        public var description: String?
        public var address: String?
        public var archived: Bool?
        public var createdAt: Date?
        public var updatedAt: Date?
        public var version: Int?
        /// The favorites with the time each was made.
        public var favorites: [Favorite]?
        /// The purchase history behind `sumCost`.
        public var promotions: [Purchase]?
        /// Where the store is (WGS-84 degrees), its weekly hours and the IANA zone they are read in.
        public var location: Location?
        public var hours: [HoursRange]?
        public var timeZone: String?
    }

    public struct Location: Codable, Sendable, Equatable {
        public var lat: Double
        public var lng: Double
    }

    /// A range of opening: day 1 (Monday) to 7, "HH:MM" times; a close not after the open is the next day's.
    public struct HoursRange: Codable, Sendable, Equatable {
        public var day: Int
        public var open: String
        public var close: String
    }

    public struct Favorite: Codable, Sendable, Equatable {
        public var userId: String
        public var createdAt: Date
    }

    public struct Purchase: Codable, Sendable, Equatable {
        public var id: String
        public var amount: Int
        public var buyerId: String?
        public var createdAt: Date
    }

    public struct Category: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var createdAt: Date?
    }

    public struct Comment: Codable, Sendable, Equatable {
        public var id: String
        // The original app's key names, kept as they are in its files.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        public var store_id: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        public var user_id: String
        /// 1–5 for reviews; ignored for notices (comments by the store's manager).
        public var rating: Int
        /// The text.
        public var context: String
        public var commentImageName: [String]
        // Additions.
        public var kind: String?
        public var hidden: Bool?
        public var hiddenAt: Date?
        public var createdAt: Date?
        public var updatedAt: Date?
        public var version: Int?
        /// A review's 口味 / 环境 / 服务 and 人均; absent means none.
        public var scores: Scores?
        public var pricePerPerson: Int?
        /// The users who liked the review (点赞).
        public var likedUserId: [String]?
        /// The store's answer (商家回复), written by the store's manager.
        public var reply: Reply?
        /// Users' reports of the comment (open while `closedAt` is absent).
        public var reports: [Report]?
    }

    public struct Report: Codable, Sendable, Equatable {
        public var id: String
        public var reporterId: String
        public var reason: String
        public var note: String?
        public var createdAt: Date?
        public var closedAt: Date?
    }

    public struct Reply: Codable, Sendable, Equatable {
        public var body: String
        public var createdAt: Date?
        public var updatedAt: Date?
    }

    public struct Scores: Codable, Sendable, Equatable {
        public var taste: Int?
        public var environment: Int?
        public var service: Int?
    }
}
