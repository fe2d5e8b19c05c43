import Foundation

/// The `q` of `GET /v1/search`, checked and read for pinyin.
public struct SearchQuery: Sendable, Equatable {
    public static let maxLength = 64

    /// Trimmed, as typed: the `text` of the match on review text.
    public let text: String
    /// The text as a pinyin key when it can be pinyin (only ASCII letters, spaces and apostrophes): lowercased,
    /// separators dropped and `v` read as `ü`, which the keys spell `u` ("lv dou" → "ludou"). Nil otherwise.
    public let pinyin: String?

    /// 400 `query_required` for a missing or blank `q`, 400 `query_too_long` over 64 characters.
    public init(_ raw: String?) throws {
        let text = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw SearchError.queryRequired }
        guard TextLimit.fits(text, Self.maxLength) else {
            throw SearchError.queryTooLong(max: Self.maxLength)
        }
        self.text = text
        pinyin = Self.pinyinKey(text)
    }

    /// Whether `search_page` counts this text in reviews (3 or more characters, not a catalogue dish): the one
    /// class whose cost grows with the data, which `SearchRepository` admits a few at a time. A dish added with
    /// `chidian dish add` is read from the summaries yet still counted here, which only makes it wait its turn.
    var countsReviews: Bool {
        let lowered = text.lowercased()
        return lowered.count >= 3 && !Self.dishNames.contains(lowered)
    }

    private static let dishNames = Set(DishCatalog.names.map { $0.lowercased() })

    /// No stored text contains NUL (PostgreSQL refuses it), so such a query matches nothing.
    var canMatch: Bool { !text.unicodeScalars.contains("\u{0}") }

    static func pinyinKey(_ text: String) -> String? {
        var key = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z":
                let lower = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
                key.append(lower == "v" ? "u" : lower)
            case " ", "'":
                continue
            default:
                return nil
            }
        }
        return key.isEmpty ? nil : String(key)
    }
}

extension SearchQuery {
    /// The first `name` parameter of a query string decoded as a form does it: `+` is a space and `%2B` a plus
    /// sign, so `?q=huo+guo` from a browser form or URLSearchParams means "huo guo". A malformed escape is kept
    /// as written.
    package static func formValue(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
        }
        return nil
    }
}
