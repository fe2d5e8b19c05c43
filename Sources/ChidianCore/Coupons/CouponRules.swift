import Foundation

/// An offer as sent (`POST /v1/stores/{id}/coupons`), each number kept as raw JSON so a value out of its range or
/// a fraction is `invalid_coupon` naming the field, while a wrong JSON type stays `invalid_body`.
public struct CouponDraft: Decodable, Sendable {
    public var title: String?
    public var faceValue: JSONValue
    public var minSpend: JSONValue?
    public var stock: JSONValue
    public var perUser: JSONValue?
    public var startsAt: String?
    public var endsAt: String?
    public var validDays: JSONValue?

    enum CodingKeys: String, CodingKey {
        case title, faceValue, minSpend, stock, perUser, startsAt, endsAt, validDays
    }

    /// An offer from a form (the web's): numbers as typed, times as RFC 3339.
    public init(
        title: String?, faceValue: JSONValue, minSpend: JSONValue?, stock: JSONValue, perUser: JSONValue?,
        startsAt: String?, endsAt: String?, validDays: JSONValue?
    ) {
        self.title = title
        self.faceValue = faceValue
        self.minSpend = minSpend
        self.stock = stock
        self.perUser = perUser
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.validDays = validDays
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        faceValue = try Self.number(container, .faceValue) ?? .null
        minSpend = try Self.number(container, .minSpend)
        stock = try Self.number(container, .stock) ?? .null
        perUser = try Self.number(container, .perUser)
        startsAt = try container.decodeIfPresent(String.self, forKey: .startsAt)
        endsAt = try container.decodeIfPresent(String.self, forKey: .endsAt)
        validDays = try Self.number(container, .validDays)
    }

    /// A number or null; any other JSON type is the body's error.
    static func number(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> JSONValue? {
        guard let value = try container.decodeIfPresent(JSONValue.self, forKey: key) else { return nil }
        switch value {
        case .integer, .number, .null: return value
        default:
            throw DecodingError.typeMismatch(
                Int.self, .init(codingPath: container.codingPath + [key], debugDescription: "not a number"))
        }
    }
}

/// A checked offer.
public struct CouponOffer: Sendable, Equatable {
    public var title: String
    public var faceValue: Int
    public var minSpend: Int
    public var stock: Int
    public var perUser: Int
    public var startsAt: Date
    public var endsAt: Date
    public var validDays: Int
}

/// Coupons' rules: the ranges of an offer and of an idempotency key.
public enum CouponRules {
    public static let maxTitle = 40
    public static let longestOffer: TimeInterval = 90 * 86400

    public static func check(_ draft: CouponDraft, now: Date) throws -> CouponOffer {
        let title = (draft.title ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maxTitle).contains(title.count), !StoreRules.containsControl(title, allowingLineBreaks: false)
        else { throw CouponError.invalid("title must be 1 to \(maxTitle) characters.") }
        let faceValue = try integer(draft.faceValue, "faceValue", 1...10_000)
        let minSpend = try draft.minSpend.map { try integer($0, "minSpend", 0...100_000) } ?? 0
        let stock = try integer(draft.stock, "stock", 1...1_000_000)
        let perUser = try draft.perUser.map { try integer($0, "perUser", 1...10) } ?? 1
        let validDays = try draft.validDays.map { try integer($0, "validDays", 1...365) } ?? 30
        let startsAt = try draft.startsAt.map { try time($0, "startsAt") } ?? now
        guard let endText = draft.endsAt else { throw CouponError.invalid("endsAt is required.") }
        let endsAt = try time(endText, "endsAt")
        guard endsAt > startsAt else { throw CouponError.invalid("endsAt must be after startsAt.") }
        guard endsAt.timeIntervalSince(startsAt) <= longestOffer else {
            throw CouponError.invalid("endsAt must be at most 90 days after startsAt.")
        }
        return CouponOffer(
            title: title, faceValue: faceValue, minSpend: minSpend, stock: stock, perUser: perUser,
            startsAt: startsAt, endsAt: endsAt, validDays: validDays)
    }

    /// A JSON integer in `range`; null, a fraction or a number out of range names the field.
    static func integer(_ value: JSONValue, _ field: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let number = value.integerValue, range.contains(number) else {
            throw CouponError.invalid(
                "\(field) must be a JSON integer from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// An RFC 3339 time, with or without fractional seconds.
    static func time(_ text: String, _ field: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw CouponError.invalid("\(field) must be an RFC 3339 time such as 2026-12-01T11:00:00Z.")
    }

    /// `Idempotency-Key`: 8–64 of `[A-Za-z0-9_-]`.
    public static func idempotencyKey(_ header: String?) throws -> String? {
        guard let header else { return nil }
        guard (8...64).contains(header.utf8.count), Viewer.isValidVisitorID(header) else {
            throw CouponError.invalidIdempotencyKey
        }
        return header
    }
}
