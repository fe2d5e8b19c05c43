import Foundation
import PostgresNIO

/// 猜你喜欢's pool without a position composed in memory (issue #45): each category's best-rated live stores from a
/// cached list (`kb:<category>`, migration 039), the best overall as those lists merged, each store's score from
/// its cached piece (`PlaceCells.scores`) and the viewer's evidence from one small statement: the candidates
/// `Taste` reads.
extension StoreCandidates {
    /// As deep as either use: the best of a category, or the best overall.
    static let bestDepth = max(StoreFeed.perCategory, StoreFeed.best)

    /// A category's best live stores, best first (rating score, then id, both descending).
    package struct BestList: Sendable {
        var ids: [String] = []
        var scores: [Double] = []
    }

    /// `Taste`'s candidates for the viewer's top `categories`; nil when the cache is not serving.
    package func composedTaste(categories top: [String], for viewer: Viewer, stores: StoreRepository) async throws
        -> [Candidate]?
    {
        guard let cache = stores.cache, let places = stores.places, cache.isLive else { return nil }
        // The category ids are the feed's piece (one entry under `categories`, not a second copy).
        guard let all = try await FeedLists(database: database, cache: cache).categoryIDs() else { return nil }
        var lists: [String: BestList] = [:]
        let keys = all.map { "kb:" + $0 }
        guard let found = cache.getAll(keys, as: BestList.self) else { return nil }
        for (category, entry) in zip(all, found) {
            if let entry {
                lists[category] = entry.value
            } else {
                lists[category] = try await cache.entry(
                    "kb:" + category, tags: { _ in ["kb:" + category] }, cost: { 64 + 40 * $0.ids.count },
                    load: {
                        try await database.run(BestStatement(category: category)).reduce(into: BestList()) {
                            $0.ids.append($1.0)
                            $0.scores.append($1.1)
                        }
                    }
                ).value
            }
        }
        let evidence = try await evidence(for: viewer, cache: cache)
        var pool = Set(evidence.related.keys)
        for category in top { pool.formUnion(lists[category]?.ids.prefix(StoreFeed.perCategory) ?? []) }
        pool.formUnion(Self.best(Array(lists.values), count: StoreFeed.best))
        let ids = pool.sorted()
        guard let scores = try await places.scores(ids) else { return nil }
        return ids.compactMap { id in
            scores[id].map { score in
                Candidate(
                    id: id, categoryID: score.categoryID, ratingScore: score.ratingScore,
                    favoriteCount: score.favoriteCount, distance: nil, covisits: evidence.related[id] ?? 0,
                    favorited: evidence.favorites.contains(id), reviewedLately: evidence.reviewed.contains(id))
            }
        }
    }

    /// The first `count` of the lists merged by score, then id, descending (ids in bytes: the cluster's collation
    /// is C.UTF-8), as `stores_rating` orders them.
    static func best(_ lists: [BestList], count: Int) -> [String] {
        DescendingMerge.merge(
            counts: lists.map(\.ids.count), count: count, key: { lists[$0].scores[$1] }, id: { lists[$0].ids[$1] }
        ).map { lists[$0.list].ids[$0.index] }
    }

    /// A category's best live stores, by `stores_category_rating`.
    struct BestStatement: PostgresPreparedStatement {
        static let name = "stores_best_of_category"
        static let sql = """
            SELECT t.id, t.rating_score FROM stores t WHERE t.category_id = $1 AND t.archived_at IS NULL
            ORDER BY t.rating_score DESC, t.id DESC LIMIT \(bestDepth)
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        var category: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(category)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, Double) { try row.decodeAll((String, Double).self) }
    }
}
