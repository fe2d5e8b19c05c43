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
    public var body: String
    public var imageUrls: [String]
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

    public struct AuthorCard: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        @Nullable public var avatarUrl: String?
    }

    /// `SELECT` list and joins matching `init(row:)`: `c` comments, `s` stores, `g` categories, `u` users.
    /// Image ids come from an ordered sub-select, so a page of comments is one query.
    /// Callers add `WHERE` (keep `CommentView.visible`), `ORDER BY` and may append key columns after these.
    public static let select = """
        SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
            (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
            u.id, u.name, u.avatar_image_id, c.rating::int, c.body,
            ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
            c.created_at, c.updated_at, c.version
        """

    /// The joins for `select`.
    public static let from = """
        FROM comments c
        JOIN stores s ON s.id = c.store_id
        JOIN categories g ON g.id = s.category_id
        JOIN users u ON u.id = c.author_id
        """

    /// Hidden comments and comments of archived stores are in no list and answer 404.
    public static let visible = "c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL"

    /// How many columns `select` has; key columns appended after it start at this index.
    static let columnCount = 16

}

extension CommentView {
    /// Decodes a row of `select`. (In an extension, so the memberwise initializer stays available.)
    public init(row: PostgresRow) throws {
        let (id, kind, storeID, storeName, categoryID, categoryName, storeImage,
            authorID, authorName, avatar, rating, body, imageIDs, createdAt, updatedAt, version) =
            try row.decode(
                (String, String, String, String, String, String, String?,
                    String, String, String?, Int?, String, [String], Date, Date, Int).self)
        self.id = id
        self.kind = CommentKind(rawValue: kind) ?? .review
        self.storeId = storeID
        self.store = StoreCard(
            id: storeID, name: storeName, category: CategoryRef(id: categoryID, name: categoryName),
            imageUrl: storeImage.map(ImageURL.path))
        self.author = AuthorCard(id: authorID, name: authorName, avatarUrl: avatar.map(ImageURL.path))
        self.rating = rating
        self.body = body
        self.imageUrls = imageIDs.map(ImageURL.path)
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }
}

public enum CommentKind: String, Sendable, Codable, CaseIterable {
    /// A user's rated review.
    case review
    /// A manager's announcement on their own store, without rating.
    case notice
}
