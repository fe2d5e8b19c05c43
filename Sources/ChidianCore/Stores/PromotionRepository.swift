import Foundation
import PostgresNIO

/// The promotion ledger. Inserting a purchase raises stores.ad_spend in the same statement (the
/// promotions_total trigger), so the ledger and the total can never disagree.
public struct PromotionRepository: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Records a purchase for a live store and returns it with the store's ad spend right after it.
    /// The trigger's UPDATE holds the store row until commit, so the total read back in the same transaction
    /// is exactly the one this purchase produced, whatever else runs concurrently.
    public func purchase(storeID: String, buyerID: String, amount: Int) async throws -> PromotionView {
        let logger = database.logger
        return try await database.transaction { connection in
            let inserted = try await connection.rows(
                """
                INSERT INTO promotions (store_id, buyer_id, amount)
                SELECT s.id, \(buyerID), \(amount) FROM stores s WHERE s.id = \(storeID) AND s.archived_at IS NULL
                RETURNING id, created_at
                """, logger: logger)
            guard let row = inserted.first else { throw StoreRepository.notFound(storeID) }
            let (id, createdAt) = try row.decodeAll((String, Date).self)
            let total = try await connection.rows("SELECT ad_spend FROM stores WHERE id = \(storeID)", logger: logger)
            return PromotionView(
                id: id, storeId: storeID, amount: amount, createdAt: createdAt,
                adSpend: try total[0].decodeAll(Int.self))
        }
    }

    /// A store's purchases, newest first.
    public func list(storeID: String, page: PageRequest) async throws -> Page<PromotionView> {
        let list = "promotions"
        let keys = try page.cursor?.keys(for: list, [.timestamp, .id])
        let (k0, k1) = (keys?[0], keys?[1])
        let rows: [PostgresRow]
        do {
            rows = try await database.query(
                """
                SELECT p.id, p.amount, p.created_at, p.created_at::text FROM promotions p
                WHERE p.store_id = \(storeID)
                    AND (\(k0)::timestamptz IS NULL OR (p.created_at, p.id) < (\(k0)::timestamptz, \(k1)::text))
                ORDER BY p.created_at DESC, p.id DESC LIMIT \(page.limit + 1)
                """)
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        let fetched = try rows.map { row in
            let (id, amount, createdAt, createdText) = try row.decodeAll((String, Int, Date, String).self)
            return (
                item: PromotionView(id: id, storeId: storeID, amount: amount, createdAt: createdAt),
                keys: [createdText, id]
            )
        }
        return Page(fetched: fetched, limit: page.limit, list: list)
    }
}
