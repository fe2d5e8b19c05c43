import Foundation
import HTTPTypes
import Hummingbird

/// `?limit=` (1–100) and `?cursor=` (opaque) from a list request.
public struct PageRequest: Sendable {
    public var limit: Int
    public var cursor: Cursor?

    /// The cursor's keys as one string, for cache keys (its token's JSON key order may vary between encodings).
    package var cacheKey: String { cursor.map { ([$0.list] + $0.keys).joined(separator: "\u{1F}") } ?? "" }

    public init(limit: Int = 20, cursor: Cursor? = nil) {
        self.limit = limit
        self.cursor = cursor
    }

    public init(_ request: Request, defaultLimit: Int = 20, maxLimit: Int = 100) throws {
        let query = QueryParameters(request)
        limit =
            try query.integer(
                "limit", in: 1...maxLimit, emptyIsAbsent: false,
                orElse: Problem.badRequest("invalid_limit", "limit must be an integer from 1 to \(maxLimit)."))
            ?? defaultLimit
        cursor = try query["cursor"].map { try Cursor(token: $0) }
    }
}

/// A keyset position: the sort key values of the last item of a page, as text so nothing is rounded
/// (timestamps keep their microseconds), tagged with the list it belongs to.
public struct Cursor: Sendable, Equatable, Codable {
    public var list: String
    public var keys: [String]

    public init(list: String, keys: [String]) {
        self.list = list
        self.keys = keys
    }

    /// The longest token accepted; a cursor this server issues is far shorter (a store name is the longest key).
    public static let maxTokenLength = 4096

    public init(token: String) throws {
        guard token.utf8.count <= Self.maxTokenLength else { throw CursorError.notIssued }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(Cursor.self, from: data)
        else {
            throw CursorError.notIssued
        }
        self = cursor
    }

    /// Sorted keys: the same cursor is the same token, so a cached page and a fresh one carry the same bytes.
    /// Written by hand as the bytes `JSONEncoder` with `.sortedKeys` gives (`CursorTokenTests` compares them):
    /// the encoder was a tenth of a featured page's CPU.
    public var token: String {
        var json: [UInt8] = []
        json.reserveCapacity(32 + keys.reduce(0) { $0 + $1.utf8.count + 3 } + list.utf8.count)
        json.append(contentsOf: #"{"keys":["#.utf8)
        for (index, key) in keys.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            Self.appendQuoted(key, to: &json)
        }
        json.append(contentsOf: #"],"list":"#.utf8)
        Self.appendQuoted(list, to: &json)
        json.append(UInt8(ascii: "}"))
        return Self.base64URL(json)
    }

    /// A JSON string as `JSONEncoder` escapes it: slashes too, and control characters by their short names.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            default: JSONText.appendEscaped(byte, to: &out)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Base64 with the URL alphabet and no padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let n = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What a cursor key must be, checked in Swift before any key reaches SQL.
    public enum Key: Sendable {
        /// A `timestamptz::text` as PostgreSQL writes it (`2026-01-31 12:00:00.123456+00`).
        case timestamp
        /// A row id.
        case id
        case integer(ClosedRange<Int>)
        /// A finite `float8::text`.
        case number
        /// Text of at most `limit` characters (the `TextLimit` rule) without NUL, which PostgreSQL text refuses.
        case text(limit: Int)
    }

    /// The keys, checked to belong to `list` and to be exactly `kinds`; otherwise 400 `invalid_cursor`.
    public func keys(for list: String, _ kinds: [Key]) throws -> [String] {
        guard self.list == list, keys.count == kinds.count, zip(keys, kinds).allSatisfy(Self.check) else {
            throw CursorError.notIssued
        }
        return keys
    }

    public static func check(_ key: String, _ kind: Key) -> Bool {
        switch kind {
        case .timestamp: return isTimestamp(key)
        case .id: return PlausibleID.check(key)
        case .integer(let range): return Int(key).map(range.contains) ?? false
        case .number:
            return key.utf8.count <= 32 && key.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/) != nil
                && Double(key)?.isFinite == true
        case .text(let limit):
            return TextLimit.fits(key, limit) && !key.utf8.contains(0)
        }
    }

    /// PostgreSQL's ISO output of a timestamptz: a real calendar date and time, years 1–9999, offset ±HH[:MM].
    static func isTimestamp(_ text: String) -> Bool {
        guard text.utf8.count <= 40,
            let m = text.wholeMatch(
                of:
                    /([0-9]{4})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,6})?[+-]([0-9]{2})(:[0-9]{2})?/
            ),
            let year = Int(m.1), let month = Int(m.2), let day = Int(m.3), let hour = Int(m.4), let minute = Int(m.5),
            let second = Int(m.6), let offset = Int(m.8)
        else { return false }
        let days = [
            31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        return year >= 1 && (1...12).contains(month) && (1...days[month - 1]).contains(day) && hour < 24 && minute < 60
            && second < 60 && offset <= 15
    }
}

/// `{items, nextCursor}`.
public struct Page<Item: Encodable & Sendable>: Encodable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// Encodes `nextCursor` as null on the last page instead of leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    package enum CodingKeys: String, CodingKey { case items, nextCursor }
}

/// Read back, as clients and the tests read a page.
extension Page: Decodable where Item: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        items = try container.decode([Item].self, forKey: .items)
        nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
    }
}

extension Page {
    /// Builds a page from `limit + 1` fetched rows: the extra row only says whether another page exists.
    /// Each row carries its sort keys as text, so the cursor repeats them exactly.
    public init(fetched: [(item: Item, keys: [String])], limit: Int, list: String) {
        if fetched.count > limit {
            self.init(
                items: fetched.prefix(limit).map(\.item),
                nextCursor: Cursor(list: list, keys: fetched[limit - 1].keys).token)
        } else {
            self.init(items: fetched.map(\.item), nextCursor: nil)
        }
    }
}

/// A cursor this list cannot continue from: every keyset list (and its repository) throws it; 400 `invalid_cursor`.
public enum CursorError: DomainError, Equatable {
    /// Not one this server issued, or keys PostgreSQL cannot read as their types.
    case notIssued
    case otherList
    case otherSearch

    public var code: String { "invalid_cursor" }
    public var kind: FailureKind { .invalid }

    public var message: String {
        switch self {
        case .notIssued: "The cursor is not one this server issued."
        case .otherList: "The cursor belongs to another list."
        case .otherSearch: "The cursor belongs to another search."
        }
    }
}
