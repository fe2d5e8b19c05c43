import Foundation
import PostgresNIO

/// Store views through the read cache: one entry per store, as everyone sees it (`favorited` false, `adSpend`
/// kept), tagged `s:<id>`; each viewer's part is added by `personalised`.
extension StoreRepository {
    /// The live stores among `ids` as everyone sees them, in order; misses are read in one statement.
    func sharedViews(ids: [String], keep: Bool = true) async throws -> [StoreView] {
        guard let cache else {
            return try await database.forReads.run(StoreStatements.SharedByIDs(ids: ids))
        }
        if keep { return try await sharedEntries(ids: ids).map { try $0.view() } }
        // Not kept: a miss is read as a view, not written as JSON to be read back.
        let (hits, missing) = Self.current(cache.getAll(ids.map { "s:" + $0 }, as: StoreCard.self), ids)
        var found = try hits.mapValues { try $0.view() }
        for view in try await sharedReads.views(missing) { found[view.id] = view }
        return ids.compactMap { found[$0] }
    }

    /// The cache entries of the live stores among `ids`, in order: each with its anonymous JSON, which a page for
    /// everyone copies instead of writing the store again. Misses, and entries whose store has opened, closed or
    /// started a coupon since they were written, are read in one statement, and kept unless `keep` is false.
    package func sharedEntries(ids: [String], keep: Bool = true) async throws -> [ReadCache.Entry<StoreCard>] {
        let hits = cache?.getAll(ids.map { "s:" + $0 }, as: StoreCard.self)
        // Every store a current hit: one lock for the list, and no dictionary.
        let now = ServerClock.now()
        if let hits, !hits.contains(where: { $0?.isCurrent(at: now) != true }) { return hits.map { $0! } }
        var (found, missing) = Self.current(hits, ids)
        let ticket = cache?.ticket()
        for view in try await sharedReads.views(missing) {
            let entry = try ReadCache.Entry(store: view)
            found[view.id] = entry
            if keep, let cache, let ticket {
                // The key is the tag: one string for both.
                let key = "s:" + view.id
                cache.insert(key, entry, tags: [key], cost: StoreCard.cost(entry.value), since: ticket)
            }
        }
        return ids.compactMap { found[$0] }
    }

    /// The entries among `hits` still current, by id, and the ids of `ids` without one (all of them when the cache
    /// does not serve).
    private static func current(_ hits: [ReadCache.Entry<StoreCard>?]?, _ ids: [String])
        -> (found: [String: ReadCache.Entry<StoreCard>], missing: [String])
    {
        let now = ServerClock.now()
        var found: [String: ReadCache.Entry<StoreCard>] = [:]
        for case let hit? in hits ?? [] where hit.isCurrent(at: now) { found[hit.value.id] = hit }
        return (found, Array(Set(ids.filter { found[$0] == nil })))
    }

    /// The stores `ids` as everyone sees them, from the primary: what is read for the cache, or for a piece kept in
    /// it, must not be older than the invalidations the cache has heard. `SharedStoreReads`'s statement, which
    /// concurrent requests' misses share: one store by the single-id statement, more by the list's.
    static func readShared(_ ids: [String], from database: Database) async throws -> [StoreView] {
        try await ReadRouting.$floor.withValue(nil) {
            ids.count == 1
                ? try await database.run(StoreStatements.ByID(id: ids[0], viewer: nil, shared: true))
                : try await database.run(StoreStatements.SharedByIDs(ids: ids))
        }
    }

    /// The cache entry of one live store (its anonymous JSON ready to send), or 404 `store_not_found`.
    package func sharedEntry(id: String) async throws -> ReadCache.Entry<StoreCard> {
        guard PlausibleID.check(id), let entry = try await sharedEntries(ids: [id]).first else {
            throw Self.notFound(id)
        }
        return entry
    }

    /// The cached stores as `viewer` sees them, written from their JSON (`PersonalStoreList`): `favorited` from one
    /// statement, `adSpend` for the manager and admins.
    package func personalList(_ entries: [ReadCache.Entry<StoreCard>], for viewer: AuthUser, near: GeoPoint?)
        async throws -> PersonalStoreList
    {
        let favorites = entries.isEmpty ? [] : try await favorited(entries.map(\.value.id), by: viewer.id)
        return PersonalStoreList(
            items: entries.map { entry in
                let card = entry.value
                return PersonalStoreList.Item(
                    store: entry, distance: card.meters(from: near), favorited: favorites.contains(card.id),
                    adSpend: StorePermissions.seesAdSpend(viewer, managerID: card.managerId) ? card.adSpend : nil)
            })
    }

    /// Shared views as `viewer` sees them: `favorited` from one statement, `adSpend` for the manager and admins.
    package func personalised(_ views: [StoreView], for viewer: AuthUser?) async throws -> [StoreView] {
        guard let viewer, !views.isEmpty else { return views.map { $0.personalised(for: nil) } }
        let favorites = try await favorited(views.map(\.id), by: viewer.id)
        return views.map { $0.personalised(for: viewer, favorited: favorites.contains($0.id)) }
    }

    /// Which of `ids` the user has favorited. With the cache, from all their favourites kept under `fv:<user>`
    /// (migration 042), unless they have more than `keptFavorites`: then one statement for these ids, as without.
    package func favorited(_ ids: [String], by userID: String) async throws -> Set<String> {
        if let cache {
            let kept = try await cache.entry(
                "fv:" + userID, tags: { _ in ["fv:" + userID] }, cost: { 64 + 40 * ($0?.count ?? 0) },
                load: { () async throws -> Set<String>? in
                    let limit = Self.keptFavorites + 1
                    let rows = try await database.query(
                        "SELECT store_id FROM favorites WHERE user_id = \(userID) LIMIT \(limit)")
                    let all = try rows.map { try $0.decode(String.self) }
                    return all.count > Self.keptFavorites ? nil : Set(all)
                }
            ).value
            if let kept { return Set(ids.filter(kept.contains)) }
        }
        return Set(try await database.run(Favorited(userID: userID, ids: ids)))
    }

    static let keptFavorites = 1_000

    /// Prepared: it runs beside every signed-in store page and list (planned once per connection, not per call).
    struct Favorited: PostgresPreparedStatement {
        static let name = "favorited_ids"
        static let sql = "SELECT store_id FROM favorites WHERE user_id = $1 AND store_id = ANY($2::text[])"
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray]

        var userID: String
        var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(userID)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }
}

extension StoreView {
    /// This shared view as `viewer` sees it.
    package func personalised(for viewer: AuthUser?, favorited: Bool = false) -> StoreView {
        var view = self
        view.favorited = favorited
        if !StorePermissions.seesAdSpend(viewer, managerID: managerId) { view.adSpend = nil }
        return view
    }
}
