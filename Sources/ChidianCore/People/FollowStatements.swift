import Foundation
import PostgresNIO

/// The prepared statements of follows and the following feed.
enum FollowStatements {
    /// Reviews by the people `$1` follows, newest first, fanned out on read in two steps. The page's reviews come
    /// from at most a page of authors, and those are among the page of followees whose newest review (after the
    /// position) is newest: an author outside them has a page of newer heads above each of their reviews. So the
    /// first step reads one index entry per followee (index-only, `comments_author_reviews`), the second a page of
    /// reviews from each of at most a page of authors. The work grows with the number followed, not with anyone's
    /// followers.
    struct FollowingFeed: PostgresPreparedStatement {
        package static let name = "following_feed"
        package static let sql = """
            WITH heads AS (
                SELECT f.followee_id AS author FROM follows f
                CROSS JOIN LATERAL (
                    SELECT c.created_at, c.id FROM comments c
                    WHERE c.author_id = f.followee_id AND \(reviews)
                      AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
                    ORDER BY c.created_at DESC, c.id DESC
                    LIMIT 1
                ) x
                WHERE f.follower_id = $1
                ORDER BY x.created_at DESC, x.id DESC
                LIMIT $4
            ), page AS (
                SELECT y.id FROM heads h
                CROSS JOIN LATERAL (
                    SELECT c.created_at, c.id FROM comments c
                    WHERE c.author_id = h.author AND \(reviews)
                      AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
                    ORDER BY c.created_at DESC, c.id DESC
                    LIMIT $4
                ) y
                ORDER BY y.created_at DESC, y.id DESC
                LIMIT $4
            )
            SELECT \(CommentRow.columns) FROM page p JOIN comments c ON c.id = p.id \(CommentRow.joins)
            WHERE \(CommentRow.visible)
            ORDER BY c.created_at DESC, c.id DESC
            """
        /// The predicate of `comments_author_reviews` (migrations 023, 034).
        package static let reviews =
            "c.hidden_at IS NULL AND c.kind = 'review' AND NOT c.store_archived AND c.recommended"
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .int8]

        package var userID: String
        package var after: CommentKeyset.Newest
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(userID)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A user's followers (`followers`) or the people they follow, newest follow first, as `$2` sees them.
    package struct People: PostgresPreparedStatement {
        package static let name = "follow_people"
        package static let sql = """
            SELECT \(UserView.columns),
                EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = $2 AND v.followee_id = u.id),
                f.created_at::text
            FROM follows f JOIN users u ON u.id = CASE WHEN $3 THEN f.follower_id ELSE f.followee_id END
            WHERE CASE WHEN $3 THEN f.followee_id ELSE f.follower_id END = $1
              AND (f.created_at, u.id) < (COALESCE($4::timestamptz, 'infinity'), COALESCE($5, ''))
            ORDER BY f.created_at DESC, u.id DESC
            LIMIT $6
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .bool, .text, .text, .int8]

        package var userID: String
        package var viewerID: String?
        package var followers: Bool
        package var after: CommentKeyset.Newest
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(userID)
            bindings.append(viewerID)
            bindings.append(followers)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (item: UserView, keys: [String]) {
            let view = try UserView(row: row, trailing: 1)
            let cells = row.makeRandomAccess()
            let key = try cells[cells.count - 1].decode(String.self)
            return (view, [key, view.id])
        }
    }
}
