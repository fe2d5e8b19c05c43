import ChidianCore
import Foundation

// What templates read (`PageModels+Template.swift` answers their names), formatted for people.

struct ViewerModel: Sendable {
    let id: String
    let name: String
    let isManager: Bool
    let isAdmin: Bool

    init(_ user: AuthUser) {
        id = user.id
        name = user.name
        isManager = user.role == .manager
        isAdmin = user.role == .admin
    }
}

/// A user's public profile, on `/users/{id}` and `/me`.
struct ProfileModel: Sendable {
    let id: String
    let name: String
    let avatarUrl: String?
    let role: String
    let reviewCount: Int
    let followerCount: Int
    let followingCount: Int
    let joined: String

    init(_ user: UserView, language: Language) {
        id = user.id
        name = user.name
        avatarUrl = user.avatarUrl
        role = language.text(["user": "roleUser", "manager": "roleManager", "admin": "roleAdmin"][user.role.rawValue]!)
        reviewCount = user.reviewCount
        followerCount = user.followerCount
        followingCount = user.followingCount
        joined = Formatting.day(user.createdAt)
    }
}

/// A rating as five stars for the eye and a sentence for a screen reader.
struct StarsModel: Sendable {
    let glyphs: String
    let label: String

    init(_ value: Double, language: Language) {
        let full = Int(value.rounded())
        glyphs = String(repeating: "★", count: full) + String(repeating: "☆", count: max(0, 5 - full))
        let number = Formatting.oneDecimal(value)
        label = language == .zh ? "\(number) 星（满分 5 星）" : "\(number) out of 5 stars"
    }
}

struct StoreCardModel: Sendable {
    let id: String
    let name: String
    let categoryName: String
    let imageUrl: String?
    let hasRating: Bool
    let average: String
    let stars: StarsModel?
    let ratingCount: Int
    let price: String?
    let promoted: Bool
    /// 券: the store has live coupons with stock left.
    let hasCoupons: Bool
    /// The list the card is in: its link says so, and the store counts the click (insights).
    let from: InsightSource?

    init(_ store: StoreView, language: Language, from: InsightSource? = nil) {
        self.from = from
        id = store.id
        name = store.name
        categoryName = store.category.name
        imageUrl = store.imageUrls.first
        hasRating = store.rating.average != nil
        average = store.rating.average.map(Formatting.oneDecimal) ?? ""
        stars = store.rating.average.map { StarsModel($0, language: language) }
        ratingCount = store.rating.count
        price = store.pricePerPerson.map { "¥\($0)" }
        promoted = store.promoted
        hasCoupons = store.couponCount(at: ServerClock.now()) > 0
    }
}

struct StorePageModel: Sendable {
    struct Score: Sendable {
        let label: String
        let value: String
    }
    struct Dish: Sendable {
        let name: String
        let count: Int
    }
    let card: StoreCardModel
    let description: String
    let address: String
    let managerName: String
    let images: [String]
    let scores: [Score]
    let dishes: [Dish]
    let hasDishes: Bool
    let favoriteCount: Int
    let favorited: Bool

    init(_ store: StoreView, language: Language) {
        card = StoreCardModel(store, language: language)
        description = store.description
        address = store.address
        managerName = store.managerName
        images = store.imageUrls
        scores = [
            ("taste", store.scores.taste), ("environment", store.scores.environment),
            ("service", store.scores.service),
        ].compactMap { key, value in value.map { Score(label: language.text(key), value: Formatting.oneDecimal($0)) } }
        dishes = store.dishes.map { Dish(name: $0.name, count: $0.count) }
        hasDishes = !dishes.isEmpty
        favoriteCount = store.favoriteCount
        favorited = store.favorited
    }
}

struct CommentCardModel: Sendable {
    struct Reply: Sendable {
        let body: String
        let authorName: String
    }
    let id: String
    let isNotice: Bool
    let storeId: String
    let storeName: String
    let categoryName: String
    let authorId: String
    let authorName: String
    let stars: StarsModel?
    let scores: String?
    let price: String?
    let body: String
    let images: [String]
    let likeCount: Int
    let liked: Bool
    /// The viewer may like or unlike it: signed in, a review, not their own.
    let canLike: Bool
    let reply: Reply?
    let date: String
    let dateTime: String

    init(_ comment: CommentView, viewer: Viewer, language: Language) {
        id = comment.id
        isNotice = comment.kind == .notice
        storeId = comment.store.id
        storeName = comment.store.name
        categoryName = comment.store.category.name
        authorId = comment.author.id
        authorName = comment.author.name
        stars = comment.rating.map { StarsModel(Double($0), language: language) }
        scores = comment.scores.flatMap { scores in
            let parts = [("taste", scores.taste), ("environment", scores.environment), ("service", scores.service)]
                .compactMap { key, value in value.map { "\(language.text(key)) \($0)" } }
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        }
        price = comment.pricePerPerson.map { "\(language.text("price")) ¥\($0)" }
        body = comment.body
        images = comment.imageUrls
        likeCount = comment.likeCount
        liked = comment.liked
        canLike = comment.kind == .review && viewer.user != nil && viewer.user?.id != comment.author.id
        reply = comment.reply.map { Reply(body: $0.body, authorName: $0.author.name) }
        date = Formatting.day(comment.createdAt)
        dateTime = Formatting.rfc3339(comment.createdAt)
    }
}

enum Formatting {
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func day(_ date: Date) -> String {
        let parts = Calendar.utc.dateComponents([.year, .month, .day], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    }

    static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
