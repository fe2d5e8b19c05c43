import Foundation

/// Which cached search pages a write can change (migration 019's events), so a review drops the pages of the texts
/// it contains and of the stores it moves, not every page.
///
/// A page of text q is the run of results after its cursor's position up to its last hit (to the end when it has no
/// next page), in search order: group (name 0, category 1, reviews 2), then count, score and id, all descending.
/// - A review's text (`r`) changes a store's count for exactly the texts the lowered body contains (literally, or
///   a vocabulary dish the pinyin spells); nothing else counts reviews. Of those pages, the ones showing the store
///   change, and the ones its count, at most its live reviews, can reach.
/// - A score move (`s`) changes no text's membership, only the store's place inside its group. A page showing the
///   store changes only if the store passes a neighbour (its view, rating included, is its own entry). A page not
///   showing it changes only if the store's new place falls inside the page: its group
///   is known from its name and category (0 or 1, count 0); in group 2 its count for q is unknown but between 1 and
///   its live reviews, and its old place was outside the page, so the counts are an interval checked as such.
/// Ties of score are counted as inside (ids are compared by PostgreSQL's collation, not here); an approximate page
/// (over the row budget, counted among newest reviews) is dropped by every event. Each rule can only drop more
/// than needed, never less.
package enum SearchInvalidation {
    package enum Event: Sendable {
        /// `reviews`: the store's live reviews after the change (migration 021), nil from an older trigger.
        case review(store: String, body: [UInt8], reviews: Int?)
        case score(store: String, old: Double, new: Double, reviews: Int, name: String, category: String)

        /// `search:{...}` as migration 019 writes it; nil when it cannot be read (the caller drops every page).
        package init?(payload: Substring) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
                return nil
            }
            if let store = object["r"] as? String, let body = object["b"] as? String {
                self = .review(store: store, body: Array(body.utf8), reviews: object["rc"] as? Int)
            } else if let store = object["s"] as? String, let old = (object["o"] as? String).flatMap(Double.init),
                let new = (object["n"] as? String).flatMap(Double.init), let reviews = object["rc"] as? Int,
                let name = object["name"] as? String
            {
                let category = object["cat"] as? String ?? ""
                self = .score(store: store, old: old, new: new, reviews: reviews, name: name, category: category)
            } else {
                return nil
            }
        }

        /// The predicate `ReadCache.invalidate(matching:)` applies to every entry and to fills in flight.
        var matcher: @Sendable (any Sendable) -> Bool {
            switch self {
            case .review(let store, let body, let reviews):
                return { value in
                    guard let page = (value as? ReadCache.Entry<SearchRepository.Hits>)?.value else { return false }
                    return page.changed(byReviewText: body, at: store, reviews: reviews)
                }
            case .score(let store, let old, let new, let reviews, let name, let category):
                let moved = ScoreMove(
                    store: store, old: old, new: new, reviews: reviews, name: Matchable(name),
                    category: Matchable(category))
                return { value in
                    guard let page = (value as? ReadCache.Entry<SearchRepository.Hits>)?.value else { return false }
                    return page.changed(by: moved)
                }
            }
        }
    }

    /// A page as the events' prefilter reads it. Each field can only let more pages through to the rules: a page
    /// ruled out here is one the rules keep (a test checks this on random pages and events).
    package struct ScanSummary: Sendable {
        /// Approximate, its text's lowering uncertain, or an empty text or dish: the rules judge it every time.
        let always: Bool
        /// Its lowered text, then each dish it counts, with their first scalars: a body that contains one has it.
        let texts: [(first: UInt32, bytes: [UInt8])]
        /// Each text's `scanKey`, under which the cache indexes the page (none when `always`).
        let keys: [UInt64]
        /// Its stores' ids, hashed.
        let shown: [Int]
        /// Its text can be pinyin, which a store's name matches through its keys.
        let pinyin: Bool
        /// Its bounds, for the group-2 rule (`reviewGroupChanged`), which is then applied here in full.
        let start: Place?
        let end: Place?
    }

    /// A text's first two scalars (the second 0 for a text of one): a body that contains the text has them, side by
    /// side (UTF-8 is self-synchronising: a byte match is a scalar match).
    static func scanKey(_ text: [UInt8]) -> UInt64 {
        var scalars = String(decoding: text, as: UTF8.self).unicodeScalars.makeIterator()
        let first = UInt64(scalars.next()?.value ?? 0)
        return first << 32 | UInt64(scalars.next()?.value ?? 0)
    }

    /// Every key a text the body contains can have: each scalar alone and each with the next.
    static func scanKeys(inBody body: [UInt8]) -> [UInt64] {
        let scalars = String(decoding: body, as: UTF8.self).unicodeScalars.map { UInt64($0.value) }
        var keys = Set<UInt64>()
        for (index, scalar) in scalars.enumerated() {
            keys.insert(scalar << 32)
            if index + 1 < scalars.count { keys.insert(scalar << 32 | scalars[index + 1]) }
        }
        return Array(keys)
    }

    /// A page's bound as numbers: (group, count, score).
    package typealias Place = (group: Int, count: Int, score: Double)

    /// Group 2, for a store a page does not show and whose name and category do not match it: the counts c in
    /// 1...reviews whose new place is on the page (ties counted in) and whose old place was not (ties counted out);
    /// any such c may be the store's. From the bounds alone, so the prefilter applies it without the page.
    static func reviewGroupChanged(start: Place?, end: Place?, old: Double, new: Double, reviews: Int) -> Bool {
        guard reviews >= 1 else { return false }
        let now = counts(start: start, end: end, score: new, loose: true, limit: reviews)
        guard now.lower <= now.upper else { return false }
        let before = counts(start: start, end: end, score: old, loose: false, limit: reviews)
        guard before.lower <= before.upper else { return true }
        return now.lower < before.lower || now.upper > before.upper
    }

    /// The counts c (within 1...limit) for which (2, c, score) lies after `start` and at or before `end`; `loose`
    /// counts a tie of score as inside. Empty when lower > upper.
    private static func counts(start: Place?, end: Place?, score: Double, loose: Bool, limit: Int)
        -> (lower: Int, upper: Int)
    {
        var lower = 1
        var upper = limit
        if let end {
            if end.group < 2 { return (1, 0) }
            lower = max(lower, firstCount(atOrBefore: end, score: score, tieInside: loose))
        }
        if let start, start.group == 2 {
            upper = min(upper, firstCount(atOrBefore: start, score: score, tieInside: !loose) - 1)
        }
        return (lower, upper)
    }

    /// The smallest count c at which (2, c, score) comes at or before `bound` (a group-2 position): larger counts
    /// come first; at the bound's own count, a higher score does (and a tie when `tieInside`).
    private static func firstCount(atOrBefore bound: Place, score: Double, tieInside: Bool) -> Int {
        let beats = tieInside ? score >= bound.score : score > bound.score
        return beats ? bound.count : bound.count + 1
    }

    /// A lowered name with its pinyin keys, computed once per event.
    package struct Matchable: Sendable {
        package let lowered: [UInt8]
        package let keys: Set<String>

        package init(_ lowered: String) {
            self.lowered = Array(lowered.utf8)
            keys = Pinyin.keys(lowered)
        }

        package func matches(_ text: SearchRepository.Scope) -> Bool {
            if !text.caseExact || contains(lowered, text.lowered) { return true }
            guard let pinyin = text.pinyin else { return false }
            return keys.contains { $0.hasPrefix(pinyin) }
        }
    }

    package struct ScoreMove: Sendable {
        package let store: String
        package let old: Double
        package let new: Double
        package let reviews: Int
        package let name: Matchable
        package let category: Matchable
    }

    /// Whether `needle` occurs in `haystack` (UTF-8 is self-synchronising: a byte match is a character match).
    package static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

extension SearchRepository {
    /// What a cached page needs to judge an event: its text, the dishes its pinyin spells, and its bounds.
    package struct Scope: Sendable {
        /// The text lowered as PostgreSQL's `lower()` does for ASCII; `caseExact` false when it holds other cased
        /// letters, whose lowering may differ between the two (such a page is dropped by every event).
        package let lowered: [UInt8]
        let caseExact: Bool
        package let pinyin: String?
        /// The lowered names of the vocabulary dishes the pinyin spells (their counts show on the page).
        package let dishes: [[UInt8]]
        /// The page's first position is after `start` (nil: the first page) and at or before `end` (nil: the last).
        package let start: Position?
        package let end: Position?

        package init(query: SearchQuery, dishes: [String], start: Position?, end: Position?) {
            lowered = Array(query.text.lowercased().utf8)
            caseExact = !query.text.unicodeScalars.contains { !$0.isASCII && $0.properties.isCased }
            pinyin = query.pinyin
            self.dishes = dishes.map { Array($0.utf8) }
            self.start = start
            self.end = end
        }
    }
}

extension SearchInvalidation.Event {
    /// The keys (`ScanSummary.keys`) of the only pages, beside the `always` ones, that the event can change; nil:
    /// any page. The cache looks them up instead of visiting every page: a visit is a few cache misses, and ten
    /// thousand of them took 5-9 ms of CPU an event on a loaded machine, past the scan budget (issue #44).
    var keys: [UInt64]? {
        switch self {
        case .review(_, let body, _): SearchInvalidation.scanKeys(inBody: body)
        case .score(_, let old, let new, _, _, _): old == new ? [] : nil
        }
    }

    /// Whether the event needs a page's rules at all, from its `ScanSummary`: computed once per event, it rules out
    /// most pages with a set lookup and a byte search, where the rules cast the entry and parse its bounds.
    var prefilter: @Sendable (SearchInvalidation.ScanSummary) -> Bool {
        switch self {
        case .review(_, let body, _):
            let scalars = Set(String(decoding: body, as: UTF8.self).unicodeScalars.map(\.value))
            return { page in
                page.always
                    || page.texts.contains { scalars.contains($0.first) && SearchInvalidation.contains(body, $0.bytes) }
            }
        case .score(let store, let old, let new, let reviews, let name, let category):
            // A move that keeps the score (the store's review count changed, not its score: 244 of the mix's 246
            // score events) moves no store on any page.
            guard old != new else { return { page in page.always } }
            let id = store.hashValue
            let (name, category) = (Array(name.utf8), Array(category.utf8))
            return { page in
                guard !page.always, !page.pinyin, !page.shown.contains(id) else { return true }
                let text = page.texts[0].bytes
                return SearchInvalidation.contains(name, text) || SearchInvalidation.contains(category, text)
                    || SearchInvalidation.reviewGroupChanged(
                        start: page.start, end: page.end, old: old, new: new, reviews: reviews)
            }
        }
    }
}

extension SearchRepository.Hits {
    package var scanSummary: SearchInvalidation.ScanSummary {
        let texts = ([scope.lowered] + scope.dishes).map { bytes in
            (first: String(decoding: bytes, as: UTF8.self).unicodeScalars.first?.value ?? 0, bytes: bytes)
        }
        let always = approximate || !scope.caseExact || texts.contains { $0.bytes.isEmpty }
        return SearchInvalidation.ScanSummary(
            always: always, texts: texts, keys: always ? [] : texts.map { SearchInvalidation.scanKey($0.bytes) },
            shown: hits.map(\.id.hashValue), pinyin: scope.pinyin != nil, start: scope.start.map(\.place),
            end: scope.end.map(\.place))
    }
}

extension SearchRepository.Position {
    var place: SearchInvalidation.Place { (group, count, Double(score) ?? 0) }
}

extension SearchRepository.Kept {
    /// (group, count, score): its place without the id.
    package var place: (Int, Int, Double) { (Int(group), Int(count), score) }
}

extension SearchRepository.Hits {
    /// A review's text at `store` (with `reviews` live reviews, when known): it moves the store's count for the
    /// texts it contains by one, to at most `reviews`. A page showing the store changes (its count shows); a page
    /// not showing it changes only if some count in 1...reviews + 1 can place the store on it (scores unknown, so
    /// ties are counted in): a first page whose last store has 500 such reviews keeps through a review at a store
    /// with 40.
    package func changed(byReviewText body: [UInt8], at store: String, reviews: Int?) -> Bool {
        if approximate || !scope.caseExact { return true }
        let contained =
            SearchInvalidation.contains(body, scope.lowered)
            || scope.dishes.contains { SearchInvalidation.contains(body, $0) }
        guard contained else { return false }
        guard let reviews, !hits.contains(where: { $0.id == store }) else { return true }
        var lower = 1
        var upper = reviews + 1
        if let end = scope.end {
            if end.group < 2 { return false }
            lower = max(lower, end.count)
        }
        if let start = scope.start, start.group == 2 { upper = min(upper, start.count) }
        return lower <= upper
    }

    package func changed(by move: SearchInvalidation.ScoreMove) -> Bool {
        if approximate { return true }
        // The score kept (the store's review count moved): no store moves on any page.
        if move.old == move.new { return false }
        if let index = hits.firstIndex(where: { $0.id == move.store }) { return !stays(index, score: move.new) }
        if move.name.matches(scope) { return inside(group: 0, score: move.new) }
        if move.category.matches(scope) { return inside(group: 1, score: move.new) }
        return reviewGroupChanged(move)
    }

    /// A store the page shows keeps its place while its new score leaves it strictly between its neighbours (the
    /// page's start for the first). The last of a page with a next one never does: the cursor carries its score.
    private func stays(_ index: Int, score: Double) -> Bool {
        let key = (hits[index].place.0, hits[index].place.1, score)
        if index == hits.count - 1, scope.end != nil { return false }
        if index > 0 {
            guard Self.compare(key, hits[index - 1].place) == .after else { return false }
        } else if let start = scope.start, Self.compare(key, start) != .after {
            return false
        }
        if index < hits.count - 1 {
            guard Self.compare(key, hits[index + 1].place) == .before else { return false }
        }
        return true
    }

    /// A store of group 0 or 1 (count 0) that the page does not show: whether its new place is on the page.
    private func inside(group: Int, score: Double) -> Bool {
        let key = (group, 0, score)
        if let end = scope.end, Self.compare(key, end) == .after { return false }
        if let start = scope.start, Self.compare(key, start) == .before { return false }
        return true
    }

    private func reviewGroupChanged(_ move: SearchInvalidation.ScoreMove) -> Bool {
        SearchInvalidation.reviewGroupChanged(
            start: scope.start.map(\.place), end: scope.end.map(\.place), old: move.old, new: move.new,
            reviews: move.reviews)
    }

    package enum Order { case before, tie, after }

    /// Where (group, count, score) stands against a position, ids left out (a tie).
    package static func compare(_ key: (Int, Int, Double), _ position: SearchRepository.Position) -> Order {
        compare(key, (position.group, position.count, Double(position.score) ?? 0))
    }

    package static func compare(_ key: (Int, Int, Double), _ other: (Int, Int, Double)) -> Order {
        if key.0 != other.0 { return key.0 < other.0 ? .before : .after }
        if key.1 != other.1 { return key.1 > other.1 ? .before : .after }
        if key.2 != other.2 { return key.2 > other.2 ? .before : .after }
        return .tie
    }
}
