import Foundation
import HTTPTypes
import Hummingbird

/// `?limit=` (1–100) and `?cursor=` (opaque) from a list request.
public struct PageRequest: Sendable {
    public var limit: Int
    public var cursor: Cursor?

    public init(limit: Int = 20, cursor: Cursor? = nil) {
        self.limit = limit
        self.cursor = cursor
    }

    public init(_ request: Request, defaultLimit: Int = 20, maxLimit: Int = 100) throws {
        let query = request.uri.queryParameters
        if let raw = query["limit"] {
            guard let value = Int(String(raw)), (1...maxLimit).contains(value) else {
                throw Problem.badRequest("invalid_limit", "limit must be an integer from 1 to \(maxLimit).")
            }
            limit = value
        } else {
            limit = defaultLimit
        }
        cursor = try query["cursor"].map { try Cursor(token: String($0)) }
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

    public init(token: String) throws {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let cursor = try? JSONDecoder().decode(Cursor.self, from: data) else {
            throw CursorError.notIssued
        }
        self = cursor
    }

    public var token: String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The keys, checked to belong to `list` and to have `count` values; otherwise 400 `invalid_cursor`.
    public func keys(for list: String, count: Int) throws -> [String] {
        guard self.list == list, keys.count == count else {
            throw CursorError.otherList
        }
        return keys
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

    enum CodingKeys: String, CodingKey { case items, nextCursor }
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
