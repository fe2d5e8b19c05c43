import Foundation
import PostgresNIO

/// Follows in PostgreSQL; the counts on users follow by trigger (migration 023).
public struct FollowRepository: Sendable {
    package let database: Database
    package let buckets: RateBuckets
    /// Follows one user may make in a day (a fixed window); re-following counts again, unfollowing gives none back.
    package let perDay: Int

    /// The read cache, which keeps the following feed's timelines (nil: `CACHE=off`).
    package let cache: ReadCache?

    public init(database: Database, buckets: RateBuckets, perDay: Int = 10_000, cache: ReadCache? = nil) {
        self.database = database
        self.buckets = buckets
        self.perDay = perDay
        self.cache = cache
    }

    /// Follows (`true`) or unfollows; idempotent. 400 `cannot_follow_self`, 404 `user_not_found`, 429 past the
    /// daily cap (only a follow that would make a row counts).
    public func set(_ on: Bool, followerID: String, followeeID: String) async throws {
        guard followerID != followeeID else { throw PeopleError.cannotFollowSelf }
        guard PlausibleID.check(followeeID), try await exists(followeeID) else {
            throw AccountError.userNotFound("No user \(followeeID.prefix(64)).")
        }
        guard on else {
            try await database.query(
                "DELETE FROM follows WHERE follower_id = \(followerID) AND followee_id = \(followeeID)")
            return
        }
        let already = try await !database.query(
            "SELECT 1 FROM follows WHERE follower_id = \(followerID) AND followee_id = \(followeeID)"
        ).isEmpty
        if already { return }
        if let wait = try await buckets.take(
            [.init("follows-day|u:\(followerID)", limit: perDay)], windowSeconds: 86_400)
        {
            throw Problem.rateLimited(retryAfter: wait)
        }
        // The user may be deleted meanwhile: the SELECT then inserts nothing, and it is a 404.
        let made = try await database.query(
            """
            INSERT INTO follows (follower_id, followee_id) SELECT \(followerID), id FROM users WHERE id = \(followeeID)
            ON CONFLICT DO NOTHING RETURNING 1
            """)
        if made.isEmpty, try await !exists(followeeID) {
            throw AccountError.userNotFound("No user \(followeeID.prefix(64)).")
        }
    }

    package func exists(_ id: String) async throws -> Bool {
        try await !database.query("SELECT 1 FROM users WHERE id = \(id)").isEmpty
    }

    /// A user's followers (`followers: true`) or the people they follow, newest follow first; 404 for no such user.
    public func people(of userID: String, followers: Bool, viewerID: String?, page: PageRequest) async throws
        -> Page<UserView>
    {
        guard PlausibleID.check(userID), try await exists(userID) else {
            throw AccountError.userNotFound("No user \(userID.prefix(64)).")
        }
        let list = followers ? "followers" : "following"
        let after = try CommentKeyset.Newest(page.cursor, list: list)
        let rows: [(item: UserView, keys: [String])]
        do {
            rows = try await database.forReads.run(
                FollowStatements.People(
                    userID: userID, viewerID: viewerID, followers: followers, after: after, limit: page.limit + 1))
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        return Page(fetched: rows, limit: page.limit, list: list)
    }

    /// Reviews by the people `userID` follows, newest first.
    package func followingFeed(userID: String, page: PageRequest) async throws -> RenderedCommentPage {
        let list = "feed.following"
        let after = try CommentKeyset.Newest(page.cursor, list: list)
        if after.createdAt == nil, let cache,
            let heads = try await FollowingTimelines(cache: cache, database: database).newest(
                followerID: userID, count: page.limit + 1)
        {
            // The cards as everyone sees them, kept per review (`cm:`, as composed feed pages read them); a miss from
            // the primary, which the timelines were read from: a replica may lack a new review.
            if let views = try await FeedLists(database: database, cache: cache).views(heads.map(\.id)) {
                let fetched = heads.compactMap { head in
                    views[head.id].map { (item: $0.value, keys: [head.key, head.id]) }
                }
                // A review hidden since its author's timeline was read: the statement answers instead.
                if fetched.count == heads.count {
                    return RenderedCommentPage(
                        Page(fetched: fetched, limit: page.limit, list: list), rendered: views.mapValues(\.json))
                }
            }
        }
        return RenderedCommentPage(
            try await CommentKeyset.page(
                FollowStatements.FollowingFeed(userID: userID, after: after, limit: page.limit + 1),
                keys: CommentKeyset.Newest.keys, limit: page.limit, list: list, database: database))
    }
}
