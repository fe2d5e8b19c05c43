import Foundation
import Logging
import PostgresNIO

/// Recommended or not (issue #48): an admin's verdict and the queue of suspicious reviews. The verdict is one
/// update of `comments.recommended`; migration 034's triggers move the store's aggregates in the same
/// transaction.
extension Moderation {
    /// Sets a review's verdict as an admin's, which the judge never overrides, and logs it (`recommend` or
    /// `not_recommend`) with `note`. 404 for no visible comment, 400 `not_a_review` for a notice.
    public func setRecommended(_ verdict: Bool?, commentID: String, adminID: String, note: String?) async throws
        -> CommentView
    {
        // Missing or not a boolean, from either door: the same 400.
        guard let recommended = verdict else {
            throw Problem.badRequest("invalid_recommended", "recommended must be true or false.")
        }
        guard PlausibleID.check(commentID) else { throw CommentError.notFound(id: commentID) }
        let logger = database.logger
        return try await database.transaction { connection in
            let found = try await connection.rows(
                """
                SELECT c.kind FROM comments c JOIN stores s ON s.id = c.store_id
                WHERE c.id = \(commentID) AND \(unescaped: CommentRow.visible)
                FOR NO KEY UPDATE OF c
                """, logger: logger)
            guard let row = found.first else { throw CommentError.notFound(id: commentID) }
            guard try row.decode(String.self) == CommentKind.review.rawValue else {
                throw Problem.badRequest("not_a_review", "Only reviews are judged recommended or not.")
            }
            try await connection.rows(
                """
                UPDATE comments SET recommended = \(recommended), verdict_by = 'admin'
                WHERE id = \(commentID) AND (recommended, verdict_by) IS DISTINCT FROM (\(recommended), 'admin')
                """, logger: logger)
            let action = recommended ? "recommend" : "not_recommend"
            try await connection.rows(
                """
                INSERT INTO moderation_log (comment_id, action, admin_id, note)
                VALUES (\(commentID), \(action), \(adminID), \(note))
                """, logger: logger)
            guard let view = try await CommentRepository.views(ids: [commentID], on: connection, logger: logger).first
            else { throw CommentError.notFound(id: commentID) }
            return view
        }
    }

    /// Reviews the judge found suspicious (a score above 0) or that are not recommended, most suspicious first
    /// (score, then id, descending), each with its signals.
    public func trustQueue(page: PageRequest) async throws -> Page<TrustItem> {
        let list = "trust.queue"
        let keys = try page.cursor?.keys(for: list, [.number, .id])
        let (k0, k1) = (keys.map { Double($0[0])! }, keys?[1])
        let logger = database.logger
        return try await database.withConnection { connection in
            let rows: [PostgresRow]
            do {
                rows = try await connection.rows(
                    """
                    SELECT c.id, c.trust_score, c.trust_score::text FROM comments c
                    WHERE c.kind = 'review' AND (c.trust_score > 0 OR NOT c.recommended)
                      AND (\(k0)::float8 IS NULL OR (c.trust_score, c.id) < (\(k0)::float8, \(k1)::text))
                    ORDER BY c.trust_score DESC, c.id DESC
                    LIMIT \(page.limit + 1)
                    """, logger: logger)
            } catch let error as PSQLError where error.isDataException {
                throw CursorError.notIssued
            }
            let keyed = try rows.map { row in
                let (id, score, key) = try row.decode((String, Double, String).self)
                return (id: id, score: score, keys: [key, id])
            }
            let shown = Array(keyed.prefix(page.limit))
            let ids = shown.map(\.id)
            let views = try await CommentRepository.views(ids: ids, on: connection, logger: logger)
            let byID = Dictionary(views.map { ($0.id, $0) }) { a, _ in a }
            let signalRows = try await connection.rows(
                """
                SELECT comment_id, kind, detail FROM comment_signals
                WHERE comment_id = ANY(\(ids)::text[]) ORDER BY comment_id, created_at, kind
                """, logger: logger)
            var signals: [String: [TrustSignal]] = [:]
            for row in signalRows {
                let (id, kind, detail) = try row.decode((String, String, String).self)
                signals[id, default: []].append(TrustSignal(kind: kind, detail: detail))
            }
            // Hidden reviews and reviews of archived stores are keyed but not shown: moderation has them.
            let items = shown.compactMap { entry in
                byID[entry.id].map { TrustItem(comment: $0, signals: signals[entry.id] ?? [], score: entry.score) }
            }
            let next = keyed.count > page.limit ? Cursor(list: list, keys: keyed[page.limit - 1].keys).token : nil
            return Page(items: items, nextCursor: next)
        }
    }
}
