import Foundation

/// `GET /v1/search`'s page: `approximate` when counting the text in reviews needed more than the row budget, so
/// a store not yet counted could have belonged on it; its counts are then lower bounds.
public struct SearchPage: Encodable, Sendable {
    public var items: [SearchResult]
    public var nextCursor: String?
    public var approximate: Bool

    /// `nextCursor` is null on the last page, not left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(approximate, forKey: .approximate)
    }

    package enum CodingKeys: String, CodingKey { case items, nextCursor, approximate }
}

extension SearchPage: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
            json.key("nextCursor"); json.string(nextCursor)
            json.key("approximate"); json.bool(approximate)
        }
    }
}

/// One item of `GET /v1/search`: a store and every way it matched.
public struct SearchResult: Encodable, Sendable, Equatable {
    public var store: StoreView
    public var matches: [SearchMatch]
}

/// `name` and `category` carry the store's name or category name and a null count; `dish` carries the query
/// (or, for pinyin, the vocabulary dish it spelled) and how many of the store's reviews contain it.
public struct SearchMatch: Encodable, Sendable, Equatable {
    public enum Field: String, Encodable, Sendable {
        case name, category, dish
    }

    public var field: Field
    public var text: String
    @Nullable public var count: Int?

    public init(field: Field, text: String, count: Int? = nil) {
        self.field = field
        self.text = text
        self.count = count
    }
}

extension SearchResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("store"); json.value(store)
            json.key("matches"); Self.write(matches, to: &json)
        }
    }

    package static func write(_ matches: [SearchMatch], to json: inout JSONWriter) {
        json.array(matches) { json, match in
            json.object { json in
                json.key("field"); json.string(match.field.rawValue)
                json.key("text"); json.string(match.text)
                json.key("count"); json.int(match.count)
            }
        }
    }
}

/// A search page for everyone, written from cached parts: each store's JSON is copied from its cache entry
/// instead of written again (the same bytes as `SearchPage` for an anonymous viewer; `SearchTests` compares).
package struct SharedSearchPage {
    package var items: [(store: ReadCache.Entry<StoreCard>, matches: [SearchMatch])]
    package var nextCursor: String?
    package var approximate: Bool

    /// The body and its validator (the same as the uncached page's).
    package func rendered() throws -> (json: [UInt8], etag: String) {
        var body = JSONWriter(capacity: 256 + items.reduce(0) { $0 + $1.store.json.count + 128 })
        write(to: &body) { json, store in json.raw(store.currentJSON) }
        let bytes = try body.finish()
        return (bytes, ContentTag.of(bytes))
    }

    private func write(to json: inout JSONWriter, store: (inout JSONWriter, ReadCache.Entry<StoreCard>) -> Void) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in
                json.object { json in
                    json.key("store"); store(&json, item.store)
                    json.key("matches"); SearchResult.write(item.matches, to: &json)
                }
            }
            json.key("nextCursor"); json.string(nextCursor)
            json.key("approximate"); json.bool(approximate)
        }
    }
}
