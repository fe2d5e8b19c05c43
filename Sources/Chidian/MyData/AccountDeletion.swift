import Foundation
import Logging
import PostgresNIO

/// Deletes an account and everything that names it (`DELETE /v1/me`, `chidian user delete`), in one transaction.
///
/// The rule: the user's reviews and notices go with the account (with their replies, likes, reports and photos),
/// rather than staying under a 已注销用户 placeholder. Erasure (PIPL art. 47, GDPR art. 17) is about the person,
/// and a kept review still identifies its writer by its style and content; afterwards no row names the user.
///
/// Store aggregates stay exact because every delete here is an ordinary row delete that runs the same triggers as
/// the API's own deletes (`DELETE /v1/comments/{id}`, unliking, unfavoriting): rating totals and counted authors,
/// sub-scores, review counts, dishes, favorite and like counts, category copies and the search tables.
///
/// A manager with a live store is refused (409 `stores_remain`): its reviewers' content is not theirs to delete.
/// Their archived stores pass to the longest-standing admin (a store is a business's record, not the manager's
/// personal data); with no admin to take them the deletion is refused too.
public struct AccountDeletion: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// What a deletion removed, for the CLI's line and the tests.
    public struct Report: Sendable, Equatable {
        public var reviews = 0
        public var images = 0
        public var storesHandedOver = 0
    }

    public func delete(userID: String) async throws -> Report {
        let logger = database.logger
        return try await database.transaction { connection in
            @discardableResult
            func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
                try await connection.rows(query, logger: logger)
            }
            // The users row first: a store being created for this manager, a review, like or favorite being
            // written (each takes a key-share lock on it through its foreign key) waits for the end or fails after.
            guard let row = try await run("SELECT name FROM users WHERE id = \(userID) FOR UPDATE").first else {
                throw AccountError.userNotFound("No such user.")
            }
            let name = try row.decode(String.self)
            let live =
                try await run(
                    "SELECT count(*)::int FROM stores WHERE manager_id = \(userID) AND archived_at IS NULL"
                ).first?.decode(Int.self) ?? 0
            guard live == 0 else {
                throw AccountError.storesRemain(
                    "You still manage \(live) live store(s): archive them or hand them over first.")
            }
            var report = Report()
            report.storesHandedOver = try await handOverArchivedStores(of: userID, on: connection, logger: logger)

            // Likes and favorites before the reviews, each in key order, as the single deletes take their locks.
            try await run(
                """
                DELETE FROM comment_likes WHERE (comment_id, user_id) IN (
                    SELECT comment_id, user_id FROM comment_likes WHERE user_id = \(userID) ORDER BY comment_id)
                """)
            try await run(
                """
                DELETE FROM favorites WHERE (user_id, store_id) IN (
                    SELECT user_id, store_id FROM favorites WHERE user_id = \(userID) ORDER BY store_id)
                """)
            // The reviews, as `DELETE /v1/comments/{id}` deletes one (its replies, likes, reports, photo rows and
            // opens cascade), store by store.
            report.reviews =
                try await run(
                    """
                    WITH gone AS (
                        DELETE FROM comments WHERE id IN (
                            SELECT id FROM comments WHERE author_id = \(userID) ORDER BY store_id, id)
                        RETURNING 1)
                    SELECT count(*)::int FROM gone
                    """
                ).first?.decode(Int.self) ?? 0
            try await deleteViewerHistory("u:\(userID)", on: connection, logger: logger)
            try await run("DELETE FROM rate_tokens WHERE rate_key_names_user(key, \(userID), \(name))")
            try await run("DELETE FROM rate_buckets WHERE rate_key_names_user(key, \(userID), \(name))")
            // The log of moderation keeps what was done, no longer by whom.
            try await run("UPDATE moderation_log SET admin_id = NULL WHERE admin_id = \(userID)")
            report.images = try await deleteImages(of: userID, on: connection, logger: logger)
            // Sessions cascade (every token is refused from now on, and migration 016 tells every server's cache);
            // promotions the user bought keep their amount (a store's ad spend) with no buyer.
            try await run("DELETE FROM users WHERE id = \(userID)")
            return report
        }
    }

    /// Gives the user's archived stores to the longest-standing other admin; refuses when there is none.
    private func handOverArchivedStores(
        of userID: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        @discardableResult
        func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.rows(query, logger: logger)
        }
        let archived =
            try await run(
                "SELECT count(*)::int FROM stores WHERE manager_id = \(userID)"
            ).first?.decode(Int.self) ?? 0
        guard archived > 0 else { return 0 }
        let admin = try await run(
            "SELECT id FROM users WHERE role = 'admin' AND id <> \(userID) ORDER BY created_at, id LIMIT 1"
        ).first?.decode(String.self)
        guard let admin else {
            throw AccountError.storesRemain(
                "You still manage \(archived) archived store(s) and no admin can take them over.")
        }
        try await run("UPDATE stores SET manager_id = \(admin) WHERE manager_id = \(userID)")
        return archived
    }

    /// What the recommender kept under `viewer`: interests, opens, exploration, and the store pairs with the one
    /// viewer each pair counted for them taken off (a pair nobody else made goes).
    private func deleteViewerHistory(_ viewer: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        @discardableResult
        func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.rows(query, logger: logger)
        }
        try await run(
            """
            WITH pairs AS (
                DELETE FROM viewer_covisits WHERE viewer = \(viewer) RETURNING a, b
            ), both_ways AS (
                SELECT a AS x, b AS y FROM pairs UNION ALL SELECT b, a FROM pairs
            ), counted AS (
                UPDATE store_covisits c SET viewers = c.viewers - 1
                FROM (SELECT x, y FROM both_ways ORDER BY x, y) p
                WHERE c.store_id = p.x AND c.other_id = p.y AND c.viewers > 1
                RETURNING 1
            )
            DELETE FROM store_covisits c USING both_ways p
            WHERE c.store_id = p.x AND c.other_id = p.y AND c.viewers <= 1
            """)
        try await run("DELETE FROM viewer_interests WHERE viewer = \(viewer)")
        try await run("DELETE FROM viewer_opens WHERE viewer = \(viewer)")
        try await run("DELETE FROM viewer_store_opens WHERE viewer = \(viewer)")
        try await run("DELETE FROM viewer_explore WHERE viewer = \(viewer)")
    }

    /// The user's uploads that no other user's live content shows (a store's photo stays), and the bytes of each
    /// that no other upload names.
    private func deleteImages(of userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> Int
    {
        @discardableResult
        func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.rows(query, logger: logger)
        }
        let hashes = try await run(
            """
            DELETE FROM images i
            WHERE i.uploader_id = \(userID)
              AND NOT EXISTS (SELECT 1 FROM store_images s WHERE s.image_id = i.id)
              AND NOT EXISTS (SELECT 1 FROM comment_images c WHERE c.image_id = i.id)
              AND NOT EXISTS (SELECT 1 FROM users u WHERE u.avatar_image_id = i.id AND u.id <> \(userID))
            RETURNING encode(sha256, 'hex')
            """
        ).map { try $0.decode(String.self) }
        guard !hashes.isEmpty else { return 0 }
        try await run(
            """
            DELETE FROM image_blobs b WHERE b.sha256 IN (SELECT decode(h, 'hex') FROM unnest(\(hashes)::text[]) h)
              AND NOT EXISTS (SELECT 1 FROM images i WHERE i.sha256 = b.sha256)
            """)
        return hashes.count
    }
}
