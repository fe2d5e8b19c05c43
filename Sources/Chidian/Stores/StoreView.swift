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
    public var favoriteCount: Int
    public var favorited: Bool
    public var promoted: Bool
    public var createdAt: Date
    public var updatedAt: Date
    public var version: Int
    public var adSpend: Int?

    public struct CategoryRef: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    /// `average` is null without reviews; `score` is the Bayesian average of migration 002 (prior 3.5 over 5 reviews).
    public struct Rating: Encodable, Sendable, Equatable {
        @Nullable public var average: Double?
        public var count: Int
        public var score: Double
    }

    /// The columns `init(row:viewer:)` reads, around the viewer's `favorited` flag (a bind, so written inline).
    static let leadingColumns = """
        SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
            COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
                     '{}'::text[]),
            s.rating_count, s.rating_sum, s.rating_score, s.favorite_count,
        """
    static let trailingColumns = "s.ad_spend, s.created_at, s.updated_at, s.version"
    /// The joins those columns need after `stores s`.
    static let joins = """
        JOIN categories c ON c.id = s.category_id
        JOIN users u ON u.id = s.manager_id
        """

}

extension StoreView {
    /// Decodes a row of `StoreRepository.views(ids:viewer:)`. (In an extension, so the memberwise initializer
    /// stays available.)
    init(row: PostgresRow, viewer: AuthUser?) throws {
        let (id, name, categoryID, categoryName, description, address, managerID, managerName) =
            try row.decode((String, String, String, String, String, String, String, String).self)
        let cells = row.makeRandomAccess()
        let imageIDs = try cells[8].decode([String].self)
        let ratingCount = try cells[9].decode(Int.self)
        let ratingSum = try cells[10].decode(Int.self)
        let score = try cells[11].decode(Double.self)
        let favoriteCount = try cells[12].decode(Int.self)
        let favorited = try cells[13].decode(Bool.self)
        let adSpend = try cells[14].decode(Int.self)
        self.id = id
        self.name = name
        self.category = CategoryRef(id: categoryID, name: categoryName)
        self.description = description
        self.address = address
        self.managerId = managerID
        self.managerName = managerName
        self.imageUrls = imageIDs.map(ImageURL.path)
        self.rating = Rating(
            average: ratingCount == 0 ? nil : Double(ratingSum) / Double(ratingCount), count: ratingCount, score: score)
        self.favoriteCount = favoriteCount
        self.favorited = favorited
        self.promoted = adSpend > 0
        self.createdAt = try cells[15].decode(Date.self)
        self.updatedAt = try cells[16].decode(Date.self)
        self.version = try cells[17].decode(Int.self)
        self.adSpend = StorePermissions.seesAdSpend(viewer, managerID: managerID) ? adSpend : nil
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
