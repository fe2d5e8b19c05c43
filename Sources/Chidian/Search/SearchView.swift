import Foundation

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
            json.key("matches")
            json.array(matches) { json, match in
                json.object { json in
                    json.key("field"); json.string(match.field.rawValue)
                    json.key("text"); json.string(match.text)
                    json.key("count"); json.int(match.count)
                }
            }
        }
    }
}
