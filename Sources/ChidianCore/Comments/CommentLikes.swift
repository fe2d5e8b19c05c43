import Foundation
import PostgresNIO

/// Likes (点赞): one per user per review. The review's `like_count` follows in the same transaction (trigger of
/// migration 010); `liked` is the viewer's own, read beside any list in one small statement.
public struct CommentLikes: Sendable {
    package let database: Database
    /// Holds each user's liked reviews (`lk:<user>`, migration 040); nil reads them beside every list.
    package let cache: ReadCache?

    public init(database: Database, cache: ReadCache? = nil) {
        self.database = database
        self.cache = cache
    }

    /// The most likes a user's cached set holds; a user with more is asked per list.
    static let cachedLikes = 1_000

    /// Likes (`true`) or unlikes a visible review; idempotent. 404 for no such comment, 400 `not_a_review` for a
    /// notice, 403 `own_comment` for one's own. Returns whether anything changed. One statement, committed as it
    /// ends: a popular review's row and its author's notification counter stay locked only while it runs, not
    /// across the round trips of a transaction (likes of one review queued behind each other under load).
    @discardableResult
    public func set(_ liked: Bool, commentID: String, userID: String) async throws -> Bool {
        guard PlausibleID.check(commentID) else { throw CommentError.notFound(id: commentID) }
        let review = CommentKind.review.rawValue
        let rows = try await database.query(
            liked
                ? """
                WITH c AS (
                    SELECT c.id, c.kind, c.author_id FROM comments c JOIN stores s ON s.id = c.store_id
                    WHERE c.id = \(commentID) AND \(unescaped: CommentRow.visible)
                ), changed AS (
                    INSERT INTO comment_likes (comment_id, user_id)
                    SELECT c.id, \(userID) FROM c WHERE c.kind = \(review) AND c.author_id <> \(userID)
                    ON CONFLICT DO NOTHING RETURNING 1
                )
                SELECT c.kind, c.author_id, (SELECT count(*)::int FROM changed) FROM c
                """
                : """
                WITH c AS (
                    SELECT c.id, c.kind, c.author_id FROM comments c JOIN stores s ON s.id = c.store_id
                    WHERE c.id = \(commentID) AND \(unescaped: CommentRow.visible)
                ), changed AS (
                    DELETE FROM comment_likes l USING c
                    WHERE l.comment_id = c.id AND l.user_id = \(userID) AND c.kind = \(review)
                      AND c.author_id <> \(userID)
                    RETURNING 1
                )
                SELECT c.kind, c.author_id, (SELECT count(*)::int FROM changed) FROM c
                """)
        guard let row = rows.first else { throw CommentError.notFound(id: commentID) }
        let (kind, author, changed) = try row.decodeAll((String, String, Int).self)
        guard kind == review else { throw CommentError.notAReview }
        guard author != userID else { throw CommentError.ownComment("You cannot like your own review.") }
        return changed > 0
    }

    /// `views` with `liked` set for `viewerID` (unchanged for nobody): one statement for the whole list.
    public func mark(_ views: [CommentView], viewerID: String?) async throws -> [CommentView] {
        guard let viewerID, !views.isEmpty else { return views }
        let liked = try await likedIDs(views.map(\.id), by: viewerID)
        return views.map { view in
            var view = view
            view.liked = liked.contains(view.id)
            return view
        }
    }

    /// Which of `ids` the user liked: one prepared statement (beside every signed-in list, so never planned twice).
    package func likedIDs(_ ids: [String], by userID: String) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        if let cache, cache.isLive, PlausibleID.check(userID) {
            let all = try await cache.entry(
                "lk:" + userID, tags: { _ in ["lk:" + userID] }, cost: { 64 + 48 * ($0?.count ?? 0) },
                load: { () -> Set<String>? in
                    let found = try await database.run(AllLiked(userID: userID, limit: Self.cachedLikes + 1))
                    return found.count > Self.cachedLikes ? nil : Set(found)
                }
            ).value
            if let all { return Set(ids.filter(all.contains)) }
        }
        return Set(try await database.run(LikedIDs(userID: userID, ids: ids)))
    }

    /// Every review a user liked, up to `limit`.
    struct AllLiked: PostgresPreparedStatement {
        static let name = "liked_all"
        static let sql = "SELECT comment_id FROM comment_likes WHERE user_id = $1 LIMIT $2"
        static let bindingDataTypes: [PostgresDataType] = [.text, .int8]

        var userID: String
        var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(userID)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    struct LikedIDs: PostgresPreparedStatement {
        static let name = "liked_ids"
        static let sql = "SELECT comment_id FROM comment_likes WHERE user_id = $1 AND comment_id = ANY($2::text[])"
        static let bindingDataTypes: [PostgresDataType] = [.text, .textArray]

        var userID: String
        var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(userID)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    public func mark(_ page: Page<CommentView>, viewerID: String?) async throws -> Page<CommentView> {
        Page(items: try await mark(page.items, viewerID: viewerID), nextCursor: page.nextCursor)
    }

    public func mark(_ view: CommentView, viewerID: String?) async throws -> CommentView {
        try await mark([view], viewerID: viewerID)[0]
    }
}
