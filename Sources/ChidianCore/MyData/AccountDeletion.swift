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
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// What a deletion removed, for the CLI's line and the tests.
    public struct Report: Sendable, Equatable {
        public var reviews = 0
        public var images = 0
        public var storesHandedOver = 0
    }

    /// Reviews deleted per transaction before the last one: each batch holds its stores' rows for about a second
    /// on a loaded machine (10 ms a review), so writers to those stores wait that long at most, not for the whole
    /// account (96 s for 10,000 reviews in one transaction).
    public static let batch = 100

    /// Deletes the account in three steps. First, in one transaction, the refusals are checked and every session
    /// is revoked (the account is signed out everywhere at once). Then what can be many rows goes in batches of
    /// `batch` (`batched`), each its own transaction. Last, one transaction checks again and deletes the rest and the users row. A failure
    /// between steps leaves a signed-out account with fewer reviews; deleting again finishes the work.
    public func delete(userID: String) async throws -> Report {
        let logger = database.logger
        let name = try await database.transaction { connection in
            let name = try await Self.lockAndCheck(userID, on: connection, logger: logger)
            try await SessionRepository.revokeAll(userID: userID, on: connection, logger: logger)
            return name
        }
        var report = Report()
        for (step, query) in Self.batched(userID) {
            var total = 0
            while true {
                let gone = try await database.query(query).first?.decode(Int.self) ?? 0
                total += gone
                if gone < Self.batch { break }
            }
            if step == .reviews { report.reviews = total }
        }
        let last = try await database.transaction { connection in
            @discardableResult
            func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
                try await connection.rows(query, logger: logger)
            }
            _ = try await Self.lockAndCheck(userID, on: connection, logger: logger)
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
            // Reviews written since the batches.
            report.reviews = try await run(Self.deleteReviews(of: userID, limit: nil)).first?.decode(Int.self) ?? 0
            try await deleteViewerHistory("u:\(userID)", on: connection, logger: logger)
            try await run("DELETE FROM rate_tokens WHERE rate_key_names_user(key, \(userID), \(name))")
            try await run("DELETE FROM rate_buckets WHERE rate_key_names_user(key, \(userID), \(name))")
            // The log of moderation keeps what was done, no longer by whom.
            try await run("UPDATE moderation_log SET admin_id = NULL WHERE admin_id = \(userID)")
            report.images = try await deleteImages(of: userID, on: connection, logger: logger)
            // Sessions cascade (migration 016 tells every server's cache); promotions the user bought keep their
            // amount (a store's ad spend) with no buyer.
            try await run("DELETE FROM users WHERE id = \(userID)")
            return report
        }
        report.reviews += last.reviews
        report.images = last.images
        report.storesHandedOver = last.storesHandedOver
        return report
    }

    /// What can be many rows, deleted `batch` at a time before the last transaction (each a transaction of its
    /// own, rows in key order as their single deletes lock them), so no statement outgrows its deadline however
    /// much the account holds: followers' notifications of the user's reviews (a review can have 100,000), likes,
    /// follows both ways (each moves a count), then the reviews themselves.
    package enum Step { case notifications, likes, follows, reviews }

    static func batched(_ userID: String) -> [(Step, PostgresQuery)] {
        [
            (
                .notifications,
                """
                WITH gone AS (
                    DELETE FROM notifications WHERE id IN (
                        SELECT n.id FROM comments c JOIN notifications n ON n.comment_id = c.id
                        WHERE c.author_id = \(userID) ORDER BY n.id LIMIT \(batch))
                    RETURNING 1)
                SELECT count(*)::int FROM gone
                """
            ),
            (
                .likes,
                """
                WITH gone AS (
                    DELETE FROM comment_likes WHERE (comment_id, user_id) IN (
                        SELECT comment_id, user_id FROM comment_likes WHERE user_id = \(userID)
                        ORDER BY comment_id LIMIT \(batch))
                    RETURNING 1)
                SELECT count(*)::int FROM gone
                """
            ),
            (
                .follows,
                """
                WITH gone AS (
                    DELETE FROM follows WHERE (follower_id, followee_id) IN (
                        SELECT follower_id, followee_id FROM follows WHERE follower_id = \(userID)
                        UNION ALL
                        SELECT follower_id, followee_id FROM follows WHERE followee_id = \(userID)
                        ORDER BY 1, 2 LIMIT \(batch))
                    RETURNING 1)
                SELECT count(*)::int FROM gone
                """
            ),
            (.reviews, deleteReviews(of: userID, limit: batch)),
        ]
    }

    /// The user's reviews and notices (at most `limit`, in store order), as `DELETE /v1/comments/{id}` deletes
    /// one: its replies, likes, reports, photo rows and opens cascade, and its store's aggregates move by trigger.
    static func deleteReviews(of userID: String, limit: Int?) -> PostgresQuery {
        """
        WITH gone AS (
            DELETE FROM comments WHERE id IN (
                SELECT id FROM comments WHERE author_id = \(userID) ORDER BY store_id, id LIMIT \(limit))
            RETURNING 1)
        SELECT count(*)::int FROM gone
        """
    }

    /// Locks the users row and returns the name, or refuses: 404 without the user, 409 `stores_remain` while a
    /// store they manage is live, or archived with no other admin to take it. The lock makes a store being
    /// created for this manager, or a review, like or favorite being written (each takes a key-share lock through
    /// its foreign key), wait for the end of the transaction.
    static func lockAndCheck(_ userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> String
    {
        guard
            let row = try await connection.rows(
                "SELECT name FROM users WHERE id = \(userID) FOR UPDATE", logger: logger
            ).first
        else { throw AccountError.userNotFound("No such user.") }
        let name = try row.decode(String.self)
        let (live, archived, admins) =
            try await connection.rows(
                """
                SELECT count(*) FILTER (WHERE archived_at IS NULL)::int, count(*) FILTER (WHERE archived_at IS NOT NULL)::int,
                    (SELECT count(*)::int FROM users WHERE role = 'admin' AND id <> \(userID))
                FROM stores WHERE manager_id = \(userID)
                """, logger: logger
            ).first?.decode((Int, Int, Int).self) ?? (0, 0, 0)
        guard live == 0 else {
            throw AccountError.storesRemain(
                "You still manage \(live) live store(s): archive them or hand them over first.")
        }
        guard archived == 0 || admins > 0 else {
            throw AccountError.storesRemain(
                "You still manage \(archived) archived store(s) and no admin can take them over.")
        }
        return name
    }

    /// Gives the user's archived stores to the longest-standing other admin (`lockAndCheck` saw one).
    private func handOverArchivedStores(
        of userID: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        let rows = try await connection.rows(
            """
            WITH admin AS (
                SELECT id FROM users WHERE role = 'admin' AND id <> \(userID) ORDER BY created_at, id LIMIT 1
            ), handed AS (
                UPDATE stores SET manager_id = (SELECT id FROM admin) WHERE manager_id = \(userID) RETURNING 1
            )
            SELECT count(*)::int FROM handed
            """, logger: logger)
        return try rows.first?.decode(Int.self) ?? 0
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
        try await run("DELETE FROM viewer_event_queue WHERE viewer = \(viewer) OR subject = \(viewer)")
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
        _ = try await Housekeeping.deleteBlobs(hashes, on: connection, logger: logger)
        return hashes.count
    }
}
