import Foundation
import PostgresNIO

/// The feed's segment statements: review ids with their `created_at` as text (the cursor key), newest first,
/// after a position (NULL keys: from the newest review).
enum FeedStatements {
    typealias Row = (id: String, createdAt: String)

    /// The reviews of one category: a range scan of `comments_feed_category`.
    struct Category: PostgresPreparedStatement {
        static let name = "feed_category"
        static let sql = """
            SELECT c.id, c.created_at::text FROM comments c
            WHERE c.category_id = $1 AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
              AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
            ORDER BY c.created_at DESC, c.id DESC LIMIT $4
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .int8]

        var category: String
        var createdAt: String?
        var id: String?
        var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(category)
            bindings.append(createdAt)
            bindings.append(id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decodeAll((String, String).self) }
    }

    /// Every review, when the viewer has clicked no category.
    struct Everything: PostgresPreparedStatement {
        static let name = "feed_everything"
        static let sql = """
            SELECT c.id, c.created_at::text FROM comments c
            WHERE c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
              AND (c.created_at, c.id) < (COALESCE($1::timestamptz, 'infinity'), COALESCE($2, ''))
            ORDER BY c.created_at DESC, c.id DESC LIMIT $3
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8]

        var createdAt: String?
        var id: String?
        var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(createdAt)
            bindings.append(id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decodeAll((String, String).self) }
    }

    /// Every review outside the clicked categories: one bounded index scan per remaining category, merged (a
    /// single newest-first scan could walk far past the clicked categories' reviews).
    struct Rest: PostgresPreparedStatement {
        static let name = "feed_rest"
        static let sql = """
            SELECT x.id, x.created_at::text FROM categories k CROSS JOIN LATERAL (
                SELECT c.id, c.created_at FROM comments c
                WHERE c.category_id = k.id AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
                  AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
                ORDER BY c.created_at DESC, c.id DESC LIMIT $4
            ) x
            WHERE k.id <> ALL($1::text[])
            ORDER BY x.created_at DESC, x.id DESC LIMIT $4
            """
        static let bindingDataTypes: [PostgresDataType] = [.textArray, .text, .text, .int8]

        var clicked: [String]
        var createdAt: String?
        var id: String?
        var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(clicked)
            bindings.append(createdAt)
            bindings.append(id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decodeAll((String, String).self) }
    }
}
