import Foundation

/// A coupon as the contract shows it; `state` is told when written, from the clock.
public struct CouponView: Encodable, Sendable, Equatable {
    public enum State: String, Encodable, Sendable {
        case upcoming, live, soldOut = "sold_out", ended
    }

    public var id: String
    public var storeId: String
    public var title: String
    public var faceValue: Int
    public var minSpend: Int
    public var stock: Int
    public var remaining: Int
    public var perUser: Int
    public var startsAt: Date
    public var endsAt: Date
    public var validDays: Int
    /// How many the viewer holds (0 for nobody).
    public var claimedByMe: Int

    /// Ended wins over sold out: a coupon past its end is ended whatever its stock.
    public func state(at now: Date) -> State {
        if now >= endsAt { return .ended }
        if now < startsAt { return .upcoming }
        return remaining == 0 ? .soldOut : .live
    }

    enum CodingKeys: String, CodingKey {
        case id, storeId, title, faceValue, minSpend, stock, remaining, perUser, startsAt, endsAt, validDays, state
        case claimedByMe
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(storeId, forKey: .storeId)
        try container.encode(title, forKey: .title)
        try container.encode(faceValue, forKey: .faceValue)
        try container.encode(minSpend, forKey: .minSpend)
        try container.encode(stock, forKey: .stock)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(perUser, forKey: .perUser)
        try container.encode(startsAt, forKey: .startsAt)
        try container.encode(endsAt, forKey: .endsAt)
        try container.encode(validDays, forKey: .validDays)
        try container.encode(state(at: ServerClock.now()), forKey: .state)
        try container.encode(claimedByMe, forKey: .claimedByMe)
    }
}

/// A claim: the code to show at the table, until `expiresAt`.
public struct ClaimView: Encodable, Sendable, Equatable {
    public var id: String
    public var coupon: CouponView
    public var code: String
    public var claimedAt: Date
    public var expiresAt: Date
    public var redeemedAt: Date?

    enum CodingKeys: String, CodingKey { case id, coupon, code, claimedAt, expiresAt, redeemedAt }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(coupon, forKey: .coupon)
        try container.encode(code, forKey: .code)
        try container.encode(claimedAt, forKey: .claimedAt)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(redeemedAt, forKey: .redeemedAt)  // null until redeemed
    }
}

/// `GET /v1/stores/{id}/coupons`: not paged (a store's live coupons and those of its last 30 days).
public struct CouponList: Encodable, Sendable {
    public var items: [CouponView]
}
