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

/// Points where a test can hold an import's transaction open, to check what other sessions can do meanwhile.
enum ImportPause {
    enum Point: Sendable {
        /// Comments merged with the triggers skipped, the touched stores locked, their totals recounted.
        case commentsMerged
        /// A bulk rebuild's fresh summary tables counted and indexed, not yet swapped in.
        case summariesIndexed
        /// Everything written (summaries swapped in); the commit comes next.
        case beforeCommit
    }

    @TaskLocal static var hook: (@Sendable (Point) async throws -> Void)?

    static func reached(_ point: Point) async throws {
        if let hook { try await hook(point) }
    }
}
