import ChidianCore
import Foundation

// What templates read (`PageModels+Template.swift` answers their names), formatted for people.

package struct ViewerModel: Sendable {
    package let id: String
    package let name: String
    package let isManager: Bool
    package let isAdmin: Bool

    package init(_ user: AuthUser) {
        id = user.id
        name = user.name
        isManager = user.role == .manager
        isAdmin = user.role == .admin
    }
}

/// A user's public profile, on `/users/{id}` and `/me`.
package struct ProfileModel: Sendable {
    package let id: String
    package let name: String
    package let avatarUrl: String?
    package let role: String
    package let reviewCount: Int
    package let followerCount: Int
    package let followingCount: Int
    package let joined: String

    package init(_ user: UserView, language: Language) {
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
package struct StarsModel: Sendable {
    package let glyphs: String
    package let label: String

    package init(_ value: Double, language: Language) {
        let full = Int(value.rounded())
        glyphs = String(repeating: "★", count: full) + String(repeating: "☆", count: max(0, 5 - full))
        let number = Formatting.oneDecimal(value)
        label = language == .zh ? "\(number) 星（满分 5 星）" : "\(number) out of 5 stars"
    }
}

package struct StoreCardModel: Sendable {
    package let id: String
    package let name: String
    package let categoryName: String
    package let imageUrl: String?
    package let hasRating: Bool
    package let average: String
    package let stars: StarsModel?
    package let ratingCount: Int
    package let price: String?
    package let promoted: Bool
    /// The list the card is in: its link says so, and the store counts the click (insights).
    package let from: InsightSource?

    package init(_ store: StoreView, language: Language, from: InsightSource? = nil) {
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
    }
}

package struct StorePageModel: Sendable {
    package struct Score: Sendable {
        package let label: String
        package let value: String
    }
    package struct Dish: Sendable {
        package let name: String
        package let count: Int
    }
    package let card: StoreCardModel
    package let description: String
    package let address: String
    package let managerName: String
    package let images: [String]
    package let scores: [Score]
    package let dishes: [Dish]
    package let hasDishes: Bool
    package let favoriteCount: Int
    package let favorited: Bool

    package init(_ store: StoreView, language: Language) {
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

package struct CommentCardModel: Sendable {
    package struct Reply: Sendable {
        package let body: String
        package let authorName: String
    }
    package let id: String
    package let isNotice: Bool
    package let storeId: String
    package let storeName: String
    package let categoryName: String
    package let authorId: String
    package let authorName: String
    package let stars: StarsModel?
    package let scores: String?
    package let price: String?
    package let body: String
    package let images: [String]
    package let likeCount: Int
    package let liked: Bool
    /// The viewer may like or unlike it: signed in, a review, not their own.
    package let canLike: Bool
    package let reply: Reply?
    package let date: String
    package let dateTime: String

    package init(_ comment: CommentView, viewer: Viewer, language: Language) {
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

package enum Formatting {
    package static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    package static func day(_ date: Date) -> String {
        let parts = Calendar.utc.dateComponents([.year, .month, .day], from: date)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    }

    package static func rfc3339(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

extension Calendar {
    package static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
