import Foundation
import PostgresNIO

/// Coupons, claims and redemptions in PostgreSQL (migration 030). The claim is one transaction: the user's row in
/// `coupon_holders` (the per-user limit), then one conditional UPDATE of the coupon (the stock), then the claim;
/// any refusal rolls back what came before it. docs/COUPONS.md has why and what it measured.
public struct CouponRepository: Sendable {
    package let database: Database
    /// This server's claims, sent in batches per coupon.
    package let batcher: ClaimBatcher

    public init(database: Database) {
        self.database = database
        batcher = ClaimBatcher(database: database)
    }

    /// The columns `view(_:)` decodes, for coupon `c` and the viewer's holding `h` (a constant, never input).
    static let columnsText = """
        c.id, c.store_id, c.title, c.face_value, c.min_spend, c.stock, c.claimed, c.per_user, c.starts_at, c.ends_at, \
        c.valid_days, coalesce(h.held, 0)::int
        """

    /// A coupon from `columnsText`, followed by `trailing` columns the caller reads.
    static func view(_ row: PostgresRow, trailing: Int = 0) throws -> CouponView {
        let (id, store, title, face, minSpend, stock, claimed, perUser, starts, ends, validDays, held) =
            try row.decodeAll(
                (String, String, String, Int, Int, Int, Int, Int, Date, Date, Int, Int).self, trailing: trailing)
        return CouponView(
            id: id, storeId: store, title: title, faceValue: face, minSpend: minSpend, stock: stock,
            remaining: stock - claimed, perUser: perUser, startsAt: starts, endsAt: ends, validDays: validDays,
            claimedByMe: held)
    }

    /// Offers a coupon at a live store.
    public func create(storeID: String, offer: CouponOffer) async throws -> CouponView {
        let rows = try await database.query(
            """
            WITH c AS (
                INSERT INTO coupons (store_id, title, face_value, min_spend, stock, per_user, starts_at, ends_at, valid_days)
                SELECT s.id, \(offer.title), \(offer.faceValue), \(offer.minSpend), \(offer.stock), \(offer.perUser),
                    \(offer.startsAt), \(offer.endsAt), \(offer.validDays)
                FROM stores s WHERE s.id = \(storeID) AND s.archived_at IS NULL
                RETURNING *
            )
            SELECT \(unescaped: Self.columnsText) FROM c LEFT JOIN coupon_holders h ON false
            """)
        guard let row = rows.first else { throw StoreRepository.notFound(storeID) }
        return try Self.view(row)
    }

    /// A coupon of a live store with the viewer's holding, and the store's manager.
    public func coupon(id: String, viewerID: String?) async throws -> (view: CouponView, managerID: String)? {
        let rows = try await database.query(
            """
            SELECT \(unescaped: Self.columnsText), s.manager_id
            FROM coupons c JOIN stores s ON s.id = c.store_id AND s.archived_at IS NULL
            LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = \(viewerID)
            WHERE c.id = \(id)
            """)
        guard let row = rows.first else { return nil }
        return (try Self.view(row, trailing: 1), try row.makeRandomAccess()[12].decode(String.self))
    }

    /// A store's coupons not ended, by start, then those ended in the last 30 days, the latest first.
    public func list(storeID: String, viewerID: String?) async throws -> [CouponView] {
        try await database.query(
            """
            SELECT \(unescaped: Self.columnsText)
            FROM coupons c LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = \(viewerID)
            WHERE c.store_id = \(storeID) AND c.ends_at > now() - interval '30 days'
            ORDER BY c.ends_at <= now(), CASE WHEN c.ends_at > now() THEN c.starts_at END, c.ends_at DESC, c.id
            LIMIT 200
            """
        ).map { try Self.view($0) }
    }

    /// Ends a coupon now (one not started yet ends before it starts); claims made stay usable.
    public func end(id: String) async throws {
        try await database.query(
            """
            UPDATE coupons SET starts_at = least(starts_at, now() - interval '1 millisecond'),
                ends_at = least(ends_at, now())
            WHERE id = \(id) AND ends_at > now()
            """)
    }
}
