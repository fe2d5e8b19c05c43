import PostgresNIO

/// Favorites: one row per (user, store); the favorites_count trigger keeps stores.favorite_count exact
/// under any concurrency, so these writes only add or remove the row.
extension StoreRepository {
    /// Favorites a live store; doing it again changes nothing. 404 `store_not_found`. Returns whether it was added.
    @discardableResult
    public func favorite(storeID: String, userID: String) async throws -> Bool {
        guard PlausibleID.check(storeID) else { throw Self.notFound(storeID) }
        let found = try await database.query(
            """
            WITH store AS (SELECT id FROM stores WHERE id = \(storeID) AND archived_at IS NULL),
                added AS (
                    INSERT INTO favorites (user_id, store_id) SELECT \(userID), id FROM store
                    ON CONFLICT DO NOTHING RETURNING 1
                )
            SELECT count(*)::int, (SELECT count(*)::int FROM added) FROM store
            """)
        let (stores, added) = try found[0].decodeAll((Int, Int).self)
        guard stores == 1 else { throw Self.notFound(storeID) }
        return added > 0
    }

    /// Removes a favorite of a live store; removing one that is not there changes nothing. 404 `store_not_found`.
    /// Returns whether one was removed.
    @discardableResult
    public func unfavorite(storeID: String, userID: String) async throws -> Bool {
        guard PlausibleID.check(storeID) else { throw Self.notFound(storeID) }
        let found = try await database.query(
            """
            WITH store AS (SELECT id FROM stores WHERE id = \(storeID) AND archived_at IS NULL),
                removed AS (DELETE FROM favorites WHERE user_id = \(userID) AND store_id IN (SELECT id FROM store)
                    RETURNING 1)
            SELECT count(*)::int, (SELECT count(*)::int FROM removed) FROM store
            """)
        let (stores, removed) = try found[0].decodeAll((Int, Int).self)
        guard stores == 1 else { throw Self.notFound(storeID) }
        return removed > 0
    }
}
