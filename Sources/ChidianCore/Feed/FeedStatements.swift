import Foundation
import PostgresNIO

/// The feed's statement: a whole page in one round trip.
enum FeedStatements {
    /// One page of the feed from a position: the walk through its segments, the page's reviews as comment views
    /// with `liked` for the viewer, whether there is more, and (when asked) the names of the walk's categories.
    ///
    /// The walk is a recursive CTE that takes one segment per step, in order, and stops once it holds `limit` rows
    /// (the page and one more) or has passed the last segment, so a page reads only the segments it reaches. A step
    /// is one of three ARRAYs, each kept from running by a one-time filter unless it is the step's segment:
    /// - a clicked category (segment < the number of clicked categories): a range scan of `comments_feed_category`;
    /// - the rest, when some category was clicked: one bounded scan of that index per other category, merged (a
    ///   single newest-first scan could walk far past the clicked categories' reviews);
    /// - everything, when none was: a range scan of `comments_feed`.
    /// Each takes the reviews after the position, newest first, as many as the page still needs; only the first
    /// step starts at the position (NULL keys: from the newest review), later ones at the top of their segment.
    /// A state row is the next segment to walk, where in it to start, how many rows the steps before the last
    /// found, the last step's ids in order (referenced once per step, so its ARRAYs run once) and the clicked
    /// categories. A walked review's position in the feed is the rows before its step plus its place in the step.
    ///
    /// Two things keep the plan cheap to reuse. Every scan has a constant LIMIT (`maxRows`) under the page's own: the
    /// planner prices a LIMIT it cannot read as a tenth of its input, which priced this statement in the tens of
    /// thousands (near `jit_above_cost`) and kept every execution planning anew; the outer LIMIT still stops each
    /// scan after the rows the page needs. And the branches test the walk's copy of the categories, not `$1`, so a
    /// custom plan cannot fold branches away and look cheaper than the generic plan PostgreSQL then keeps.
    ///
    /// A row per review of the page (every walked row but one past the page, which is only counted), in no
    /// order: the caller sorts by position (so PostgreSQL sorts no wide rows). Each has its segment and
    /// `created_at` as text (the cursor's keys), whether its store is shown (what `CommentRepository.views`
    /// checks beyond the walk's index predicate) and `liked` (the viewer's likes among the page's ids, one scan of
    /// `comment_likes_user` as `CommentLikes.mark` does, not a probe per row). Whether the walk found more than the page, and the category names,
    /// come on every row; a page that walked nothing is one row of those alone (NULL comment columns and position).
    package struct Page: PostgresPreparedStatement {
        /// The most rows a walk may want: a page of the API's largest limit (100), the pinned reviews it reads past
        /// (`FeedRepository.pinnedReach`) and one more.
        static let maxRows = 111
        package static let name = "feed_page"
        package static let sql = """
            WITH RECURSIVE walk (segment, at, id, before, ids, clicked) AS (
                SELECT $2::int, COALESCE($3::timestamptz, 'infinity'), COALESCE($4, ''), 0, '{}'::text[], $1::text[]
                UNION ALL
                SELECT w.segment + 1, 'infinity'::timestamptz, ''::text, w.before + cardinality(w.ids),
                    ARRAY(
                        SELECT y.id FROM (
                            SELECT c.id, c.created_at FROM comments c
                            WHERE c.category_id = w.clicked[w.segment + 1]
                              AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                              AND (c.created_at, c.id) < (w.at, w.id)
                            ORDER BY c.created_at DESC, c.id DESC LIMIT \(maxRows)) y
                        WHERE w.segment < cardinality(w.clicked)
                        ORDER BY y.created_at DESC, y.id DESC LIMIT $5 - w.before - cardinality(w.ids))
                    || ARRAY(
                        SELECT x.id FROM categories k CROSS JOIN LATERAL (
                            SELECT y.id, y.created_at FROM (
                                SELECT c.id, c.created_at FROM comments c
                                WHERE c.category_id = k.id
                                  AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                                  AND (c.created_at, c.id) < (w.at, w.id)
                                ORDER BY c.created_at DESC, c.id DESC LIMIT \(maxRows)) y
                            ORDER BY y.created_at DESC, y.id DESC LIMIT $5 - w.before - cardinality(w.ids)
                        ) x
                        WHERE w.segment = cardinality(w.clicked) AND cardinality(w.clicked) > 0
                          AND k.id <> ALL(w.clicked)
                        ORDER BY x.created_at DESC, x.id DESC LIMIT $5 - w.before - cardinality(w.ids))
                    || ARRAY(
                        SELECT y.id FROM (
                            SELECT c.id, c.created_at FROM comments c
                            WHERE c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                              AND (c.created_at, c.id) < (w.at, w.id)
                            ORDER BY c.created_at DESC, c.id DESC LIMIT \(maxRows)) y
                        WHERE w.segment = cardinality(w.clicked) AND cardinality(w.clicked) = 0
                        ORDER BY y.created_at DESC, y.id DESC LIMIT $5 - w.before - cardinality(w.ids)),
                    w.clicked
                FROM walk w
                WHERE w.before + cardinality(w.ids) < $5 AND w.segment <= cardinality(w.clicked)
            ), page AS (
                SELECT w.segment - 1 AS segment, w.before + p.n AS position, p.id
                FROM walk w CROSS JOIN LATERAL unnest(w.ids) WITH ORDINALITY AS p(id, n)
                WHERE w.before + p.n < $5
                UNION ALL
                SELECT -1, -p.n, p.id FROM unnest($8::text[]) WITH ORDINALITY AS p (id, n)
            ), names AS (
                SELECT array_agg(k.id ORDER BY o.n) AS ids, array_agg(k.name ORDER BY o.n) AS names
                FROM unnest($1::text[]) WITH ORDINALITY AS o(id, n) JOIN categories k ON k.id = o.id
                WHERE $7
            )
            SELECT \(CommentRow.columns),
                p.position, p.segment, s.archived_at IS NULL,
                c.id = ANY(ARRAY(SELECT l.comment_id FROM comment_likes l
                    WHERE l.user_id = $6 AND l.comment_id = ANY(ARRAY(SELECT q.id FROM page q)))),
                (SELECT max(w.before + cardinality(w.ids)) FROM walk w) >= $5,
                n.ids, n.names
            FROM names n LEFT JOIN (page p JOIN comments c ON c.id = p.id
                AND (p.position > 0 OR (c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended))
                \(CommentRow.joins)) ON true
            """
        static let bindingDataTypes: [PostgresDataType] = [
            .textArray, .int8, .text, .text, .int8, .text, .bool, .textArray,
        ]

        /// The walk's categories in order (the rest follows them).
        package var clicked: [String]
        /// The position: a segment (an index into `clicked`, or its count for the rest) and the last row read
        /// there (nil: from its newest review).
        package var segment: Int
        package var createdAt: String?
        package var id: String?
        /// How many rows to walk, at most `maxRows`: a page and one more, which says whether there is a next page.
        package var limit: Int
        /// Whose likes `liked` shows; nobody's for nil.
        package var viewerID: String?
        package var names: Bool
        /// Reviews set into this page's places (`FeedRepository.Plan.pinned`), returned beside the walk with negative
        /// positions (their order in this list), when still visible: one statement for the whole page.
        var pinned: [String] = []

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 8)
            bindings.append(clicked)
            bindings.append(segment)
            bindings.append(createdAt)
            bindings.append(id)
            bindings.append(limit)
            bindings.append(viewerID)
            bindings.append(names)
            bindings.append(pinned)
            return bindings
        }

        /// The columns after `CommentRow.columns`.
        static let trailing = 7

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let cells = row.makeRandomAccess()
            let base = cells.count - Self.trailing
            guard base >= 0 else { throw RowShapeMismatch(expected: Self.trailing, actual: cells.count) }
            var names: [String: String]? = nil
            if let ids = try cells[base + 5].decode([String]?.self),
                let values = try cells[base + 6].decode([String]?.self)
            {
                names = Dictionary(zip(ids, values)) { a, _ in a }
            }
            let more = try cells[base + 4].decode(Bool.self)
            guard let position = try cells[base].decode(Int?.self) else {
                return Row(item: nil, more: more, names: names)
            }
            var decoded = try CommentRow.decode(row, trailing: Self.trailing)
            decoded.view.liked = try cells[base + 3].decode(Bool.self)
            let item = Item(
                position: position, segment: try cells[base + 1].decode(Int.self), createdAtKey: decoded.createdAtKey,
                view: decoded.view, shown: try cells[base + 2].decode(Bool.self))
            return Row(item: item, more: more, names: names)
        }
    }

    package struct Row: Sendable {
        /// Nil on the one row of a page that walked nothing.
        package var item: Item?
        /// Whether the walk found a row past the page.
        package var more: Bool
        /// The walk's categories that still exist, id → name; nil unless asked for.
        package var names: [String: String]?
    }

    /// A review of the page.
    struct Item: Sendable {
        /// Its place in the walk, from 1.
        package var position: Int
        package var segment: Int
        var createdAtKey: String
        package var view: CommentView
        /// False when its store is archived though the review's copy of that flag says not (a trigger keeps them
        /// equal; this is `CommentRepository.views`' check, kept): walked, so a cursor may stop on it, but not shown.
        package var shown: Bool
    }
}
