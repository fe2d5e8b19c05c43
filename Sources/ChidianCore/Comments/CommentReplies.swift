import Foundation
import PostgresNIO

/// Merchant replies (商家回复): one per review, by the manager of the review's store; shown under the review.
public struct CommentReplies: Sendable {
    package let database: Database
    public static let maxBodyLength = 2000

    public init(database: Database) {
        self.database = database
    }

    /// The trimmed body, or 400 `body_required` / `body_too_long` / `invalid_body` (NUL).
    public static func validBody(_ raw: String?) throws -> String {
        let body = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw CommentError.bodyRequired }
        guard TextLimit.fits(body, maxBodyLength) else { throw CommentError.bodyTooLong(max: maxBodyLength) }
        guard !body.unicodeScalars.contains("\u{0}") else { throw CommentError.bodyHasNul }
        return body
    }

    /// Sets or replaces the reply to a visible review: 404 `comment_not_found`, 403 `not_store_owner` for anyone
    /// but the store's manager, 400 `not_a_review` for a notice.
    public func put(commentID: String, user: AuthUser, body: String) async throws -> CommentView {
        let logger = database.logger
        return try await database.transaction { connection in
            let kind = try await Self.check(commentID, user: user, adminMay: false, on: connection, logger: logger)
            guard kind == CommentKind.review.rawValue else { throw CommentError.notAReview }
            try await connection.rows(
                """
                INSERT INTO comment_replies (comment_id, author_id, body) VALUES (\(commentID), \(user.id), \(body))
                ON CONFLICT (comment_id) DO UPDATE SET author_id = EXCLUDED.author_id, body = EXCLUDED.body,
                    updated_at = now()
                """, logger: logger)
            guard let view = try await CommentRepository.views(ids: [commentID], on: connection, logger: logger).first
            else { throw CommentError.notFound(id: commentID) }
            return view
        }
    }

    /// Deletes the reply: the store's manager or an admin; 404 `reply_not_found` when there is none.
    public func delete(commentID: String, user: AuthUser) async throws {
        let logger = database.logger
        try await database.transaction { connection in
            _ = try await Self.check(commentID, user: user, adminMay: true, on: connection, logger: logger)
            let deleted = try await connection.rows(
                "DELETE FROM comment_replies WHERE comment_id = \(commentID) RETURNING 1", logger: logger)
            guard !deleted.isEmpty else { throw CommentError.replyNotFound }
        }
    }

    /// The visible comment's kind once `user` may answer for its store.
    package static func check(
        _ commentID: String, user: AuthUser, adminMay: Bool, on connection: PostgresConnection, logger: Logger
    ) async throws -> String {
        guard PlausibleID.check(commentID) else { throw CommentError.notFound(id: commentID) }
        let rows = try await connection.rows(
            """
            SELECT c.kind, s.manager_id FROM comments c JOIN stores s ON s.id = c.store_id
            WHERE c.id = \(commentID) AND \(unescaped: CommentRow.visible)
            """, logger: logger)
        guard let row = rows.first else { throw CommentError.notFound(id: commentID) }
        let (kind, manager) = try row.decodeAll((String, String).self)
        guard manager == user.id || (adminMay && user.role == .admin) else {
            throw StoreError.notOwner("Only the store's manager answers its reviews.")
        }
        return kind
    }
}
