import Foundation
import PostgresNIO

/// Moderation from the command line: a hidden comment leaves every list and answers 404, but stays in
/// the database; its rating leaves its store's totals (trigger of 001).
public enum CommentModeration {
    public enum HideResult: Sendable, Equatable {
        case hidden
        case alreadyHidden
    }

    /// Hides comment `id`; hiding twice changes nothing. Throws `CommentError.notFound` when there is no such
    /// comment (hidden ones included).
    public static func hide(id: String, database: Database) async throws -> HideResult {
        guard PlausibleID.check(id) else { throw CommentError.notFound(id: id) }
        let rows = try await database.query(
            """
            WITH hidden AS (
                UPDATE comments SET hidden_at = now() WHERE id = \(id) AND hidden_at IS NULL RETURNING id
            )
            SELECT (SELECT count(*) FROM hidden)::int, (SELECT count(*) FROM comments WHERE id = \(id))::int
            """)
        let (hidden, exists) = try rows[0].decodeAll((Int, Int).self)
        if hidden > 0 { return .hidden }
        if exists > 0 { return .alreadyHidden }
        throw CommentError.notFound(id: id)
    }
}
