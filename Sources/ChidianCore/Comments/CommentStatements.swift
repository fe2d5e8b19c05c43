import Foundation
import PostgresNIO

/// The columns of a comment view and their decoder, kept side by side: `decode` reads the row whole
/// (`decodeAll`), so a column added to one and not the other fails every comment read.
/// `c` comments, `s` stores, `g` categories, `u` users; image ids come from ordered sub-selects, so a page of
/// comments is one statement.
package enum CommentRow {
    package static let columns = """
        c.id, c.kind, c.store_id, s.name, g.id, g.name,
            (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
            u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
            c.price_per_person, c.body,
            ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
            c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
            c.created_at, c.updated_at, c.version, c.created_at::text, c.recommended
        """

    /// The joins `columns` needs, from comments `c`.
    package static let from = "FROM comments c \(joins)"
    package static let joins = """
        JOIN stores s ON s.id = c.store_id
        JOIN categories g ON g.id = s.category_id
        JOIN users u ON u.id = c.author_id
        LEFT JOIN comment_replies r ON r.comment_id = c.id
        LEFT JOIN users ru ON ru.id = r.author_id
        """

    /// Hidden comments and comments of archived stores are in no list and answer 404.
    package static let visible = "c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL"

    /// A decoded row: the view and its `created_at` as text (microseconds kept), a keyset cursor key.
    package struct Decoded: Sendable {
        package var view: CommentView
        var createdAtKey: String
    }

    /// Decodes a row of `columns` followed by exactly `trailing` columns of the statement's own, which its
    /// decoder reads by index after these.
    package static func decode(_ row: PostgresRow, trailing: Int = 0) throws -> Decoded {
        let (
            id, kindText, storeID, storeName, categoryID, categoryName, storeImage, authorID, authorName, avatar,
            rating, taste, environment, service, price, body, imageIDs, likeCount, replyBody, replierID, replierName,
            repliedAt, replyUpdatedAt, createdAt, updatedAt, version, createdAtKey, recommended
        ) = try row.decodeAll(
            (
                String, String, String, String, String, String, String?,
                String, String, String?, Int?, Int?, Int?, Int?, Int?, String, [String], Int, String?, String?, String?,
                Date?, Date?, Date, Date, Int, String, Bool
            ).self, trailing: trailing)
        let kind = CommentKind(rawValue: kindText) ?? .review
        let view = CommentView(
            id: id, kind: kind, storeId: storeID,
            store: .init(
                id: storeID, name: storeName, category: .init(id: categoryID, name: categoryName),
                imageUrl: storeImage.map(ImageURL.path)),
            author: .init(id: authorID, name: authorName, avatarUrl: avatar.map(ImageURL.path)),
            rating: rating,
            scores: kind == .review ? CommentScores(taste: taste, environment: environment, service: service) : nil,
            pricePerPerson: price, body: body, imageUrls: imageIDs.map(ImageURL.path), likeCount: likeCount,
            liked: false, recommended: recommended,
            reply: zip5(replyBody, replierID, replierName, repliedAt, replyUpdatedAt).map {
                CommentView.Reply(body: $0, author: .init(id: $1, name: $2), createdAt: $3, updatedAt: $4)
            },
            createdAt: createdAt,
            updatedAt: updatedAt, version: version)
        return Decoded(view: view, createdAtKey: createdAtKey)
    }
}

/// All five, or nil when any is missing (a left join that found nothing).
private func zip5<A, B, C, D, E>(_ a: A?, _ b: B?, _ c: C?, _ d: D?, _ e: E?) -> (A, B, C, D, E)? {
    guard let a, let b, let c, let d, let e else { return nil }
    return (a, b, c, d, e)
}

/// The prepared statements that read comments. A list statement takes the position after which its page starts
/// (NULL keys: the first page, which starts above every row) and `limit` rows.
enum CommentStatements {
    /// The visible comments among `ids` (any order; the caller restores its own).
    struct ByIDs: PostgresPreparedStatement {
        package static let name = "comments_by_ids"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.id = ANY($1::text[]) AND \(CommentRow.visible)
            """
        static let bindingDataTypes: [PostgresDataType] = [.textArray]

        package var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentView { try CommentRow.decode(row).view }
    }

    /// One visible comment as a signed-in viewer sees it: its view and whether they liked it, in one round trip
    /// (opening a review is the commonest signed-in read; two statements cost it a fifth of its rate).
    struct ByIDFor: PostgresPreparedStatement {
        package static let name = "comment_by_id_for"
        package static let sql = """
            SELECT \(CommentRow.columns),
                EXISTS (SELECT 1 FROM comment_likes l WHERE l.user_id = $2 AND l.comment_id = c.id)
            \(CommentRow.from)
            WHERE c.id = $1 AND \(CommentRow.visible)
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text]

        package var id: String
        package var viewerID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(id)
            bindings.append(viewerID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentView {
            var view = try CommentRow.decode(row, trailing: 1).view
            let cells = row.makeRandomAccess()
            view.liked = try cells[cells.count - 1].decode(Bool.self)
            return view
        }
    }

    /// A store's comments of the given kinds, newest first.
    struct StoreNewest: PostgresPreparedStatement {
        package static let name = "store_comments_newest"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.store_id = $1 AND \(CommentRow.visible) AND c.recommended AND c.kind = ANY($2::text[])
              AND (c.created_at, c.id) < (COALESCE($3::timestamptz, 'infinity'), COALESCE($4, ''))
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT $5
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .text, .text, .int8]

        package var storeID: String
        package var kinds: [String]
        package var after: CommentKeyset.Newest
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(storeID)
            bindings.append(kinds)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A store's reviews and notices by rating, notices (no rating: 0) after every review, then newest first.
    struct StoreByRating: PostgresPreparedStatement {
        package static let name = "store_comments_rating"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.store_id = $1 AND \(CommentRow.visible) AND c.recommended AND c.kind = ANY($2::text[])
              AND (COALESCE(c.rating, 0), c.created_at, c.id)
                  < (COALESCE($3::int, 6), COALESCE($4::timestamptz, 'infinity'), COALESCE($5, ''))
            ORDER BY COALESCE(c.rating, 0) DESC, c.created_at DESC, c.id DESC
            LIMIT $6
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .int8, .text, .text, .int8]

        package var storeID: String
        package var kinds: [String]
        package var after: CommentKeyset.Rating
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            after.bindings(storeID: storeID, kinds: kinds, limit: limit)
        }
        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A store's reviews alone by rating: sorting by the plain column walks the comments_store_rating index.
    struct StoreReviewsByRating: PostgresPreparedStatement {
        package static let name = "store_reviews_rating"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.store_id = $1 AND \(CommentRow.visible) AND c.recommended AND c.kind = ANY($2::text[])
              AND (c.rating, c.created_at, c.id)
                  < (COALESCE($3::int, 6), COALESCE($4::timestamptz, 'infinity'), COALESCE($5, ''))
            ORDER BY c.rating DESC, c.created_at DESC, c.id DESC
            LIMIT $6
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .int8, .text, .text, .int8]

        package var storeID: String
        package var after: CommentKeyset.Rating
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            after.bindings(storeID: storeID, kinds: [CommentKind.review.rawValue], limit: limit)
        }
        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A store's comments of the given kinds, most liked first, then newest.
    struct StoreHelpful: PostgresPreparedStatement {
        package static let name = "store_comments_helpful"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.store_id = $1 AND \(CommentRow.visible) AND c.recommended AND c.kind = ANY($2::text[])
              AND (c.like_count, c.created_at, c.id)
                  < (COALESCE($3::int, 2147483647), COALESCE($4::timestamptz, 'infinity'), COALESCE($5, ''))
            ORDER BY c.like_count DESC, c.created_at DESC, c.id DESC
            LIMIT $6
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray, .int8, .text, .text, .int8]

        package var storeID: String
        package var kinds: [String]
        package var after: CommentKeyset.Helpful
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(storeID)
            bindings.append(kinds)
            bindings.append(after.likes)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A store's reviews judged not recommended, newest first (on `comments_store_not_recommended`).
    struct StoreNotRecommended: PostgresPreparedStatement {
        package static let name = "store_comments_not_recommended"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.store_id = $1 AND \(CommentRow.visible) AND NOT c.recommended
              AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT $4
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .int8]

        package var storeID: String
        package var after: CommentKeyset.Newest
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(storeID)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// A user's visible comments, newest first; those judged not recommended only when `all` (their author's
    /// own view).
    struct UserNewest: PostgresPreparedStatement {
        package static let name = "user_comments_newest"
        package static let sql = """
            SELECT \(CommentRow.columns) \(CommentRow.from)
            WHERE c.author_id = $1 AND \(CommentRow.visible) AND ($5 OR c.recommended)
              AND (c.created_at, c.id) < (COALESCE($2::timestamptz, 'infinity'), COALESCE($3, ''))
            ORDER BY c.created_at DESC, c.id DESC
            LIMIT $4
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .int8, .bool]

        package var userID: String
        package var after: CommentKeyset.Newest
        package var limit: Int
        package var all: Bool

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(userID)
            bindings.append(after.createdAt)
            bindings.append(after.id)
            bindings.append(limit)
            bindings.append(all)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> CommentRow.Decoded { try CommentRow.decode(row) }
    }

    /// Posting a review or notice with images; the images and the view follow in the same transaction.
    struct Insert: PostgresPreparedStatement {
        package static let name = "comment_insert"
        package static let sql = """
            WITH c AS (
                INSERT INTO comments (kind, store_id, author_id, rating, body, taste, environment, service, price_per_person)
                VALUES ($1, $2, $3, $4::smallint, $5, $6::smallint, $7::smallint, $8::smallint, $9::int)
                RETURNING id, kind, author_id
            )\(originsCTE)
            SELECT id FROM c
            """
        static let bindingDataTypes = insertTypes

        package var new: CommentRepository.NewComment

        func makeBindings() throws -> PostgresBindings { insertBindings(new) }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decodeAll((String).self) }
    }

    /// Posting without images, the common case: the insert and its view in one statement, one round trip and no
    /// transaction around it. The view reads the inserted row itself (a new comment has no images, likes or reply
    /// yet); no row when the store is unknown or archived.
    struct InsertView: PostgresPreparedStatement {
        package static let name = "comment_insert_view"
        package static let sql = """
            WITH c AS (
                INSERT INTO comments (kind, store_id, author_id, rating, body, taste, environment, service, price_per_person)
                SELECT $1, $2, $3, $4::smallint, $5, $6::smallint, $7::smallint, $8::smallint, $9::int
                WHERE EXISTS (SELECT 1 FROM stores WHERE id = $2 AND archived_at IS NULL)
                RETURNING *
            )\(originsCTE)
            SELECT \(CommentRow.columns) FROM c \(CommentRow.joins)
            """
        static let bindingDataTypes = insertTypes

        package var new: CommentRepository.NewComment

        func makeBindings() throws -> PostgresBindings { insertBindings(new) }

        func decodeRow(_ row: PostgresRow) throws -> CommentView { try CommentRow.decode(row).view }
    }

    static let insertTypes: [PostgresDataType] = [
        .text, .text, .text, .int8, .text, .int8, .int8, .int8, .int8, .text, .text,
    ]

    /// A review's author is remembered as posting from the request's address ($10) and visitor id ($11), as keyed
    /// hashes, for the trust judge (docs/TRUST.md): in the insert's own statement, so posting costs no round trip.
    static let originsCTE = """
        , origins AS (
            INSERT INTO trust_origins AS t (user_id, origin)
            SELECT c.author_id, trust_origin_hash(x.kind, x.value)
            FROM c, (VALUES ('a', $10::text), ('v', $11::text)) AS x (kind, value)
            WHERE c.kind = 'review' AND x.value IS NOT NULL
            ON CONFLICT (user_id, origin) DO NOTHING
        )
        """

    static func insertBindings(_ new: CommentRepository.NewComment) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 11)
        bindings.append(new.kind.rawValue)
        bindings.append(new.storeID)
        bindings.append(new.authorID)
        bindings.append(new.rating)
        bindings.append(new.body)
        bindings.append(new.scores?.taste)
        bindings.append(new.scores?.environment)
        bindings.append(new.scores?.service)
        bindings.append(new.pricePerPerson)
        bindings.append(new.origin?.address)
        bindings.append(new.origin?.visitor)
        return bindings
    }
}
