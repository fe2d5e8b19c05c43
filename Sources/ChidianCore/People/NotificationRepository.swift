import Foundation
import PostgresNIO

/// A user's notifications (written by migration 023's triggers), read and marked read here.
public struct NotificationRepository: Sendable {
    package let database: Database
    /// A notification shows its comment as its reader sees it.
    package let comments: CommentRepository
    package let likes: CommentLikes

    public init(database: Database, comments: CommentRepository, likes: CommentLikes) {
        self.database = database
        self.comments = comments
        self.likes = likes
    }

    /// Newest first (by `seq`: a like group that gained a liker comes up again), optionally unread only.
    public func list(userID: String, unread: Bool, page: PageRequest) async throws -> Page<NotificationView> {
        let list = unread ? "notifications.unread" : "notifications"
        var before: Int64? = nil
        if let cursor = page.cursor {
            before = Int64(try cursor.keys(for: list, [.integer(0...Int.max)])[0])
        }
        let rows = try await database.query(
            """
            SELECT \(unescaped: NotificationRow.columns) \(unescaped: NotificationRow.from)
            WHERE n.user_id = \(userID) AND (NOT \(unread) OR n.read_at IS NULL)
              AND n.seq < COALESCE(\(before), 9223372036854775807) AND \(unescaped: NotificationRow.shown)
            ORDER BY n.seq DESC
            LIMIT \(page.limit + 1)
            """)
        let views = try await withComments(rows.map(NotificationRow.decode), viewerID: userID)
        return Page(fetched: views.map { ($0, [String($0.seq)]) }, limit: page.limit, list: list)
    }

    /// The notifications after `seq` (oldest first, at most `limit`): what a stream has not sent yet.
    public func after(userID: String, seq: Int64, limit: Int = 100) async throws -> [NotificationView] {
        let rows = try await database.query(
            """
            SELECT \(unescaped: NotificationRow.columns) \(unescaped: NotificationRow.from)
            WHERE n.user_id = \(userID) AND n.seq > \(seq) AND \(unescaped: NotificationRow.shown)
            ORDER BY n.seq
            LIMIT \(limit)
            """)
        return try await withComments(rows.map(NotificationRow.decode), viewerID: userID)
    }

    /// The last `seq` given to the user so far (0 for none): where a fresh stream starts.
    public func lastSeq(userID: String) async throws -> Int64 {
        try await database.query("SELECT last_seq FROM notification_counters WHERE user_id = \(userID)")
            .first?.decodeAll(Int64.self) ?? 0
    }

    public func unreadCount(userID: String) async throws -> Int {
        try await database.query(
            """
            SELECT count(*)::int FROM notifications n
            WHERE n.user_id = \(userID) AND n.read_at IS NULL AND \(unescaped: NotificationRow.shown)
            """
        ).first?.decodeAll(Int.self) ?? 0
    }

    /// Marks read the user's notifications among `ids`, or made at or before `before`, or (neither) all of them.
    public func markRead(userID: String, ids: [String]?, before: Date?) async throws {
        let numbers = try ids.map { ids in
            try ids.map { id -> Int64 in
                guard let number = Int64(id), number > 0 else { throw PeopleError.invalidIDs }
                return number
            }
        }
        try await database.query(
            """
            UPDATE notifications SET read_at = now()
            WHERE user_id = \(userID) AND read_at IS NULL
              AND ((\(numbers)::bigint[] IS NULL AND \(before)::timestamptz IS NULL)
                   OR id = ANY(\(numbers)::bigint[])
                   -- Clients see whole seconds: `before` names the second a notification they saw was made in.
                   OR date_trunc('second', created_at) <= \(before)::timestamptz)
            """)
    }

    /// Fills in each notification's comment: visible ones only (a closed report about a hidden review shows none).
    func withComments(_ decoded: [(view: NotificationView, commentID: String?)], viewerID: String) async throws
        -> [NotificationView]
    {
        let ids = Array(Set(decoded.compactMap(\.commentID)))
        let comments = try await likes.mark(try await self.comments.views(ids: ids), viewerID: viewerID)
        let byID = Dictionary(comments.map { ($0.id, $0) }) { a, _ in a }
        return decoded.map { item in
            var view = item.view
            view.comment = item.commentID.flatMap { byID[$0] }
            return view
        }
    }
}
