import ChidianCore
import PostgresNIO

/// What lets `seed` run into a database that servers are using (migration 005, docs/SEARCH.md).
extension SeedWriter {
    /// Locks the stores whose comments the import merges, in id order, until it commits. Readers never wait for a
    /// row lock; writers of these stores do (comment inserts at their foreign-key check, rating, hide and delete
    /// changes at the rating trigger's store update, body edits at the search trigger's KEY SHARE lock), so the
    /// totals and search summaries recounted below include every write committed before and none after.
    static let lockTouchedStores: PostgresQuery = """
        SELECT count(*)::int FROM (
            SELECT id FROM stores
            WHERE id IN (SELECT id FROM seed_stores UNION SELECT store_id FROM seed_comments)
            ORDER BY id FOR UPDATE
        ) locked
        """
}
