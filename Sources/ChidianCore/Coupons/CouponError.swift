/// The failures of coupons, claims and redemption (the contract's "Coupons").
public enum CouponError: DomainError, Equatable {
    case notFound(id: String)
    /// A field of an offer out of its range, named.
    case invalid(String)
    case soldOut
    case claimLimit(Int)
    case notLive
    case ownStore
    case invalidIdempotencyKey
    case codeNotFound
    case alreadyRedeemed
    case invalidState

    public var code: String {
        switch self {
        case .notFound: "coupon_not_found"
        case .invalid: "invalid_coupon"
        case .soldOut: "sold_out"
        case .claimLimit: "claim_limit"
        case .notLive: "coupon_not_live"
        case .ownStore: "own_store"
        case .invalidIdempotencyKey: "invalid_idempotency_key"
        case .codeNotFound: "code_not_found"
        case .alreadyRedeemed: "already_redeemed"
        case .invalidState: "invalid_state"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .notFound, .codeNotFound: .notFound
        case .soldOut, .claimLimit, .notLive, .alreadyRedeemed: .conflict
        case .ownStore: .forbidden
        case .invalid, .invalidIdempotencyKey, .invalidState: .invalid
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No coupon \(id.prefix(64))."
        case .invalid(let reason): reason
        case .soldOut: "Every coupon of this offer has been claimed."
        case .claimLimit(let perUser): "You already hold \(perUser) of this coupon, as many as one person may."
        case .notLive: "This coupon cannot be claimed now: it has not started or has ended."
        case .ownStore: "A store's manager cannot claim its own coupons."
        case .invalidIdempotencyKey: "Idempotency-Key must be 8 to 64 of A-Z, a-z, 0-9, _ and -."
        case .codeNotFound: "No claim of this store has that code."
        case .alreadyRedeemed: "This code has already been redeemed."
        case .invalidState: "state must be usable, redeemed or expired."
        }
    }
}
