import Foundation
import PostgresNIO

extension CouponRepository {
    /// Claims a coupon for a user: never past the stock, never past its `perUser` for them, whatever runs at
    /// once. Sent with the other claims of the coupon waiting on this server as one statement (`ClaimBatcher`,
    /// migration 031's `coupon_claim_batch`, which judges each in the contract's order), so nothing holds the
    /// coupon's row across a round trip. `key` is stored with the claim; a concurrent claim under the same key
    /// loses to it and returns it (`replayed`).
    public func claim(couponID: String, userID: String, key: String?) async throws -> (claim: ClaimView, replayed: Bool)
    {
        for _ in 0..<3 {
            switch try await batcher.claim(coupon: couponID, user: userID, code: CouponCode.generate(), key: key) {
            case .claimed(let claim): return (claim, false)
            case .refused("claim_limit"):
                let limit = try await coupon(id: couponID, viewerID: nil)?.view.perUser ?? 1
                throw CouponError.claimLimit(limit)
            case .refused("sold_out"): throw CouponError.soldOut
            case .refused("coupon_not_live"): throw CouponError.notLive
            case .refused("own_store"): throw CouponError.ownStore
            case .refused("conflict"):
                // The same key from a concurrent request of the same user: theirs is the claim.
                if let key, let earlier = try await claim(userID: userID, couponID: couponID, key: key) {
                    return (earlier, true)
                }
                continue  // a code drawn twice: draw again
            case .refused: throw CouponError.notFound(id: couponID)
            }
        }
        throw CouponError.notFound(id: couponID)
    }

    /// Who holds claims of a coupon, when they are at most `limit` (nil past it).
    public func holders(of couponID: String, limit: Int) async throws -> Set<String>? {
        let rows = try await database.query(
            "SELECT DISTINCT user_id FROM coupon_claims WHERE coupon_id = \(couponID) LIMIT \(limit + 1)")
        guard rows.count <= limit else { return nil }
        return Set(try rows.map { try $0.decode(String.self) })
    }

    /// The claim columns after `columnsText`: `q` is the claim.
    static let claimColumns = "q.id, q.code, q.claimed_at, q.expires_at, q.redeemed_at"

    static func claimView(_ row: PostgresRow, trailing: Int = 0) throws -> ClaimView {
        let coupon = try view(row, trailing: 5 + trailing)
        let cells = row.makeRandomAccess()
        return ClaimView(
            id: try cells[12].decode(String.self), coupon: coupon, code: try cells[13].decode(String.self),
            claimedAt: try cells[14].decode(Date.self), expiresAt: try cells[15].decode(Date.self),
            redeemedAt: try cells[16].decode(Date?.self))
    }

    /// A claim by id, its coupon as its holder sees it.
    public func claim(id: String) async throws -> ClaimView? {
        try await database.query(
            """
            SELECT \(unescaped: Self.columnsText), \(unescaped: Self.claimColumns)
            FROM coupon_claims q JOIN coupons c ON c.id = q.coupon_id
            LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = q.user_id
            WHERE q.id = \(id)
            """
        ).first.map { try Self.claimView($0) }
    }

    /// The claim a user made of a coupon under an idempotency key.
    public func claim(userID: String, couponID: String, key: String) async throws -> ClaimView? {
        try await database.query(
            """
            SELECT \(unescaped: Self.columnsText), \(unescaped: Self.claimColumns)
            FROM coupon_claims q JOIN coupons c ON c.id = q.coupon_id
            LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = q.user_id
            WHERE q.user_id = \(userID) AND q.coupon_id = \(couponID) AND q.idempotency_key = \(key)
            """
        ).first.map { try Self.claimView($0) }
    }

    public enum ClaimState: String, Sendable { case usable, redeemed, expired }

    /// A user's claims, newest first, optionally in one state.
    public func claims(userID: String, state: ClaimState?, page: PageRequest) async throws -> Page<ClaimView> {
        let list = "claims"
        let keys = try page.cursor?.keys(for: list, [.timestamp, .id])
        let (k0, k1) = (keys?[0], keys?[1])
        let rows: [PostgresRow]
        do {
            rows = try await database.query(
                """
                SELECT \(unescaped: Self.columnsText), \(unescaped: Self.claimColumns), q.claimed_at::text
                FROM coupon_claims q JOIN coupons c ON c.id = q.coupon_id
                LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = q.user_id
                WHERE q.user_id = \(userID)
                    AND CASE \(state?.rawValue)::text
                        WHEN 'usable' THEN q.redeemed_at IS NULL AND q.expires_at > now()
                        WHEN 'redeemed' THEN q.redeemed_at IS NOT NULL
                        WHEN 'expired' THEN q.redeemed_at IS NULL AND q.expires_at <= now()
                        ELSE true END
                    AND (\(k0)::timestamptz IS NULL OR (q.claimed_at, q.id) < (\(k0)::timestamptz, \(k1)::text))
                ORDER BY q.claimed_at DESC, q.id DESC LIMIT \(page.limit + 1)
                """)
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        let fetched = try rows.map { row in
            let claim = try Self.claimView(row, trailing: 1)
            return (item: claim, keys: [try row.makeRandomAccess()[17].decode(String.self), claim.id])
        }
        return Page(fetched: fetched, limit: page.limit, list: list)
    }

    public enum RedeemFailure: Error { case notFound, alreadyRedeemed, expired }

    /// Marks a claim of the store redeemed now.
    public func redeem(code: String, storeID: String) async throws -> Result<ClaimView, RedeemFailure> {
        let done = try await database.query(
            """
            UPDATE coupon_claims SET redeemed_at = now()
            WHERE code = \(code) AND store_id = \(storeID) AND redeemed_at IS NULL AND expires_at > now()
            RETURNING id
            """)
        if let row = done.first, let claim = try await claim(id: try row.decodeAll(String.self)) {
            return .success(claim)
        }
        let state = try await database.query(
            "SELECT redeemed_at IS NOT NULL FROM coupon_claims WHERE code = \(code) AND store_id = \(storeID)")
        guard let row = state.first else { return .failure(.notFound) }
        return .failure(try row.decodeAll(Bool.self) ? .alreadyRedeemed : .expired)
    }
}
