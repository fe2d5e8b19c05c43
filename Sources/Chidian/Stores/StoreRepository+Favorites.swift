import PostgresNIO

/// Favorites: one row per (user, store); the favorites_count trigger keeps stores.favorite_count exact
/// under any concurrency, so these writes only add or remove the row.
extension StoreRepository {
    /// Favorites a live store; doing it again changes nothing. 404 `store_not_found`.
    public func favorite(storeID: String, userID: String) async throws {
        guard PlausibleID.check(storeID) else { throw Self.notFound(storeID) }
        let found = try await database.query(
            """
            WITH store AS (SELECT id FROM stores WHERE id = \(storeID) AND archived_at IS NULL),
                added AS (
                    INSERT INTO favorites (user_id, store_id) SELECT \(userID), id FROM store
                    ON CONFLICT DO NOTHING
                )
            SELECT count(*)::int FROM store
            """)
        guard try found[0].decodeAll(Int.self) == 1 else { throw Self.notFound(storeID) }
    }

    /// Removes a favorite of a live store; removing one that is not there changes nothing. 404 `store_not_found`.
    public func unfavorite(storeID: String, userID: String) async throws {
        guard PlausibleID.check(storeID) else { throw Self.notFound(storeID) }
        let found = try await database.query(
            """
            WITH store AS (SELECT id FROM stores WHERE id = \(storeID) AND archived_at IS NULL),
                removed AS (DELETE FROM favorites WHERE user_id = \(userID) AND store_id IN (SELECT id FROM store))
            SELECT count(*)::int FROM store
            """)
        guard try found[0].decodeAll(Int.self) == 1 else { throw Self.notFound(storeID) }
    }
}
