import Foundation
import PostgresNIO

/// 猜你喜欢's pool without a position composed in memory (issue #45): each category's best-rated live stores from a
/// cached list (`kb:<category>`, migration 039), the best overall as those lists merged, each store's score from
/// its cached piece (`PlaceCells.scores`) and the viewer's evidence from one small statement: the candidates
/// `Taste` reads.
extension StoreCandidates {
    /// As deep as either use: the best of a category, or the best overall.
    static let bestDepth = max(StoreFeed.perCategory, StoreFeed.best)

    /// A category's best live stores, best first (rating score, then id, both descending), with each one's
    /// favorites: a pool's candidates from the lists need no score of their own (kept under each store's `s:` tag
    /// too, so a favorite counted drops the list, as it drops the store's score).
    package struct BestList: Sendable {
        var ids: [String] = []
        var scores: [Double] = []
        var favorites: [Int] = []
    }

    /// `Taste`'s candidates for the viewer's top `categories`; nil when the cache is not serving.
    package func composedTaste(categories top: [String], for viewer: Viewer, stores: StoreRepository) async throws
        -> [Candidate]?
    {
        guard let cache = stores.cache, let places = stores.places, cache.isLive else { return nil }
        // The category ids are the feed's piece (one entry under `categories`, not a second copy).
        guard let all = try await FeedLists(database: database, cache: cache).categoryIDs() else { return nil }
        var lists: [BestList] = []
        lists.reserveCapacity(all.count)
        guard let found = cache.getAll(all.map { "kb:" + $0 }, as: BestList.self) else { return nil }
        for (category, entry) in zip(all, found) {
            if let entry {
                lists.append(entry.value)
            } else {
                lists.append(
                    try await cache.entry(
                        "kb:" + category, tags: { ["kb:" + category] + $0.ids.map { "s:" + $0 } },
                        cost: { 64 + 48 * $0.ids.count },
                        load: {
                            try await database.run(BestStatement(category: category)).reduce(into: BestList()) {
                                $0.ids.append($1.0)
                                $0.scores.append($1.1)
                                $0.favorites.append($1.2)
                            }
                        }
                    ).value)
            }
        }
        let evidence = try await evidence(for: viewer, cache: cache)
        // The lists' stores come with their scores; only the viewer's related stores outside them are looked up.
        // Each store is hashed once, to find it again; the viewer's evidence is then laid on by walking it (or the
        // candidates, when they are fewer), not looked up five times for every candidate.
        var candidates: [Candidate] = []
        var at: [String: Int] = [:]
        let expected = StoreFeed.perCategory * top.count + StoreFeed.best + evidence.related.count
        candidates.reserveCapacity(expected)
        at.reserveCapacity(expected)
        func take(_ list: Int, _ index: Int) {
            let id = lists[list].ids[index]
            guard at[id] == nil else { return }
            at[id] = candidates.count
            candidates.append(
                Candidate(
                    id: id, categoryID: all[list], ratingScore: lists[list].scores[index],
                    favoriteCount: lists[list].favorites[index], distance: nil, covisits: 0, favorited: false,
                    reviewedLately: false))
        }
        let positions = Dictionary(all.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for category in top {
            guard let list = positions[category] else { continue }
            for index in lists[list].ids.indices.prefix(StoreFeed.perCategory) { take(list, index) }
        }
        for (list, index) in Self.best(lists, count: StoreFeed.best) { take(list, index) }
        var outside: [String] = []
        for (id, count) in evidence.related {
            if let index = at[id] { candidates[index].covisits = count } else { outside.append(id) }
        }
        guard let scores = try await relatedScores(evidence, for: viewer, places: places) else { return nil }
        for id in outside {
            guard let score = scores[id] else { continue }
            at[id] = candidates.count
            candidates.append(
                Candidate(
                    id: id, categoryID: score.categoryID, ratingScore: score.ratingScore,
                    favoriteCount: score.favoriteCount, distance: nil, covisits: evidence.related[id] ?? 0,
                    favorited: false, reviewedLately: false))
        }
        func mark(_ ids: Set<String>, _ flag: WritableKeyPath<Candidate, Bool>) {
            if ids.count < candidates.count {
                for id in ids { if let index = at[id] { candidates[index][keyPath: flag] = true } }
            } else {
                for index in candidates.indices where ids.contains(candidates[index].id) {
                    candidates[index][keyPath: flag] = true
                }
            }
        }
        mark(evidence.favorites, \.favorited)
        mark(evidence.reviewed, \.reviewedLately)
        // In no particular order: ranking orders by worth, then id.
        return candidates
    }

    /// The first `count` of the lists merged by score, then id, descending (ids in bytes: the cluster's collation
    /// is C.UTF-8), as `stores_rating` orders them.
    static func best(_ lists: [BestList], count: Int) -> [(list: Int, index: Int)] {
        DescendingMerge.merge(
            counts: lists.map(\.ids.count), count: count, key: { lists[$0].scores[$1] }, id: { lists[$0].ids[$1] })
    }

    /// A category's best live stores, by `stores_category_rating`.
    struct BestStatement: PostgresPreparedStatement {
        static let name = "stores_best_of_category"
        static let sql = """
            SELECT t.id, t.rating_score, t.favorite_count FROM stores t WHERE t.category_id = $1 AND t.archived_at IS NULL
            ORDER BY t.rating_score DESC, t.id DESC LIMIT \(bestDepth)
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        var category: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(category)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, Double, Int) {
            try row.decodeAll((String, Double, Int).self)
        }
    }
}
