import Foundation
import PostgresNIO

/// The public shape of a review or notice: its store's card and its author's current name and avatar,
/// read at request time so a rename shows everywhere.
public struct CommentView: Encodable, Sendable, Equatable {
    public var id: String
    public var kind: CommentKind
    public var storeId: String
    public var store: StoreCard
    public var author: AuthorCard
    @Nullable public var rating: Int?
    /// 口味 / 环境 / 服务, each 1–5 or null; null as a whole for notices.
    @Nullable public var scores: CommentScores?
    /// 人均, a whole amount of money; null when not given (and for notices).
    @Nullable public var pricePerPerson: Int?
    public var body: String
    public var imageUrls: [String]
    public var likeCount: Int
    /// Whether the viewer liked it; false for nobody (set per request by `CommentLikes.mark`).
    public var liked: Bool
    /// False when the review is judged not recommended (issue #48): it then counts in nothing its store shows.
    /// Notices are always recommended.
    public var recommended: Bool
    /// The store's answer (商家回复), or null.
    @Nullable public var reply: Reply?
    public var createdAt: Date
    public var updatedAt: Date
    public var version: Int

    public struct StoreCard: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var category: CategoryRef
        @Nullable public var imageUrl: String?
    }

    public struct CategoryRef: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct Reply: Encodable, Sendable, Equatable {
        public var body: String
        public var author: Replier
        public var createdAt: Date
        public var updatedAt: Date
    }

    public struct Replier: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct AuthorCard: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        @Nullable public var avatarUrl: String?
    }
}

/// A review's sub-ratings (Dianping's 口味, 环境, 服务).
public struct CommentScores: Encodable, Sendable, Equatable {
    @Nullable public var taste: Int?
    @Nullable public var environment: Int?
    @Nullable public var service: Int?

    public init(taste: Int? = nil, environment: Int? = nil, service: Int? = nil) {
        self.taste = taste
        self.environment = environment
        self.service = service
    }

    package var isEmpty: Bool { taste == nil && environment == nil && service == nil }
}

public enum CommentKind: String, Sendable, Codable, CaseIterable {
    /// A user's rated review.
    case review
    /// A manager's announcement on their own store, without rating.
    case notice
}
