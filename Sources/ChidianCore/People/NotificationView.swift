import Foundation
import PostgresNIO

/// The public shape of a notification. `seq` is its place in the user's sequence (the stream's event id), not shown.
public struct NotificationView: Encodable, Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Encodable {
        case reply, like, follow
        case reportHandled = "report_handled"
        case followedReview = "followed_review"
        case storeReview = "store_review"
        case couponExpiring = "coupon_expiring"
    }

    public struct Actor: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct StoreRef: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public var id: String
    public var kind: Kind
    public var createdAt: Date
    @Nullable public var readAt: Date?
    /// The most recent actors (at most `NotificationRow.shownActors`), newest first.
    public var actors: [Actor]
    public var actorCount: Int
    @Nullable public var comment: CommentView?
    @Nullable public var store: StoreRef?
    public var seq: Int64 = 0

    package enum CodingKeys: String, CodingKey {
        case id, kind, createdAt, readAt, actors, actorCount, comment, store
    }
}

/// The columns of a notification and their decoder, side by side. `n` notifications, `s` stores.
package enum NotificationRow {
    /// A like group names its latest few likers and counts the rest ("张三 and 12 others").
    package static let shownActors = 3

    package static let columns = """
        n.id, n.seq, n.kind, n.created_at, n.read_at, n.comment_id, s.id, s.name,
        ARRAY(SELECT a.user_id FROM notification_actors a WHERE a.notification_id = n.id
              ORDER BY a.created_at DESC, a.user_id LIMIT \(shownActors)),
        ARRAY(SELECT u.name FROM notification_actors a JOIN users u ON u.id = a.user_id
              WHERE a.notification_id = n.id ORDER BY a.created_at DESC, a.user_id LIMIT \(shownActors)),
        (SELECT count(*) FROM notification_actors a WHERE a.notification_id = n.id)::int
        """

    package static let from = "FROM notifications n LEFT JOIN stores s ON s.id = n.store_id"

    /// Never about a comment nobody may see (hidden ones are deleted by 023; this covers archived stores too),
    /// but a closed report's notice, which then shows no comment.
    package static let shown = """
        (n.comment_id IS NULL OR n.kind = 'report_handled' OR EXISTS (
            SELECT 1 FROM comments c JOIN stores cs ON cs.id = c.store_id
            WHERE c.id = n.comment_id AND c.hidden_at IS NULL AND NOT c.store_archived AND cs.archived_at IS NULL))
        """

    /// The view without its comment (`commentID` says which to fetch).
    package static func decode(_ row: PostgresRow) throws -> (view: NotificationView, commentID: String?) {
        let (id, seq, kind, createdAt, readAt, commentID, storeID, storeName, actorIDs, actorNames, actorCount) =
            try row.decodeAll(
                (Int64, Int64, String, Date, Date?, String?, String?, String?, [String], [String], Int).self)
        // The table's CHECK allows only these kinds; a new one must be added here, not shown as another.
        guard let kind = NotificationView.Kind(rawValue: kind) else { throw UnknownKind(kind: kind) }
        let view = NotificationView(
            id: String(id), kind: kind, createdAt: createdAt,
            readAt: readAt,
            actors: zip(actorIDs, actorNames).map { NotificationView.Actor(id: $0, name: $1) },
            actorCount: actorCount, comment: nil,
            store: zip2(storeID, storeName).map { NotificationView.StoreRef(id: $0, name: $1) }, seq: seq)
        return (view, commentID)
    }
}

private func zip2<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}

struct UnknownKind: Error {
    package let kind: String
}

/// `{"count": n}`: the unread notifications, for the API and the web's badge.
package struct UnreadCount: Encodable, Sendable {
    package var count: Int

    package init(count: Int) {
        self.count = count
    }
}
