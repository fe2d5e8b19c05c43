import Foundation
import PostgresNIO

extension CouponRepository {
    /// Why a claim was refused inside its transaction (rolled back with it).
    enum Refusal: Error { case limit, soldOut, notLive }

    /// Claims a coupon for a user: never past the stock, never past `perUser` for them, whatever runs at once.
    /// `key` is stored with the claim; a concurrent claim under the same key loses to it and returns it (`replayed`).
    public func claim(couponID: String, userID: String, perUser: Int, key: String?) async throws
        -> (claim: ClaimView, replayed: Bool)
    {
        let logger = database.logger
        for _ in 0..<3 {
            let code = CouponCode.generate()
            do {
                let id = try await database.transaction { connection -> String in
                    // The user's own row first: their concurrent claims queue here, not on the coupon's row.
                    let held = try await connection.rows(
                        """
                        INSERT INTO coupon_holders AS h (coupon_id, user_id, held) VALUES (\(couponID), \(userID), 1)
                        ON CONFLICT (coupon_id, user_id) DO UPDATE SET held = h.held + 1 WHERE h.held < \(perUser)
                        RETURNING held
                        """, logger: logger)
                    guard !held.isEmpty else { throw Refusal.limit }
                    let taken = try await connection.rows(
                        """
                        UPDATE coupons SET claimed = claimed + 1
                        WHERE id = \(couponID) AND claimed < stock AND starts_at <= now() AND ends_at > now()
                        RETURNING id
                        """, logger: logger)
                    if taken.isEmpty {
                        let state = try await connection.rows(
                            "SELECT claimed >= stock, starts_at > now() OR ends_at <= now() FROM coupons WHERE id = \(couponID)",
                            logger: logger)
                        let (soldOut, notLive) = try state.first?.decodeAll((Bool, Bool).self) ?? (false, true)
                        throw notLive ? Refusal.notLive : soldOut ? Refusal.soldOut : Refusal.notLive
                    }
                    let inserted = try await connection.rows(
                        """
                        INSERT INTO coupon_claims (coupon_id, store_id, user_id, code, idempotency_key, expires_at)
                        SELECT c.id, c.store_id, \(userID), \(code), \(key), now() + make_interval(days => c.valid_days)
                        FROM coupons c WHERE c.id = \(couponID)
                        RETURNING id
                        """, logger: logger)
                    return try inserted[0].decodeAll(String.self)
                }
                guard let claim = try await claim(id: id) else { throw CouponError.notFound(id: couponID) }
                return (claim, false)
            } catch Refusal.limit {
                throw CouponError.claimLimit(perUser)
            } catch Refusal.soldOut {
                throw CouponError.soldOut
            } catch Refusal.notLive {
                throw CouponError.notLive
            } catch let error as PSQLError where error.serverCode == .uniqueViolation {
                // The same key from a concurrent request of the same user: theirs is the claim.
                if let key, let earlier = try await claim(userID: userID, key: key) { return (earlier, true) }
                continue  // a code drawn twice: draw again
            }
        }
        throw CouponError.notFound(id: couponID)
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

    /// The claim a user made under an idempotency key.
    public func claim(userID: String, key: String) async throws -> ClaimView? {
        try await database.query(
            """
            SELECT \(unescaped: Self.columnsText), \(unescaped: Self.claimColumns)
            FROM coupon_claims q JOIN coupons c ON c.id = q.coupon_id
            LEFT JOIN coupon_holders h ON h.coupon_id = c.id AND h.user_id = q.user_id
            WHERE q.user_id = \(userID) AND q.idempotency_key = \(key)
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
