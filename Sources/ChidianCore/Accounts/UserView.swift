import Foundation
import PostgresNIO

/// The public shape of a user.
public struct UserView: Encodable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var role: Role
    @Nullable public var avatarUrl: String?
    public var createdAt: Date
    public var reviewCount: Int
    public var followerCount: Int
    public var followingCount: Int
    /// Whether the viewer follows this user (false for nobody and for oneself).
    public var following: Bool

    /// Columns matching `init(row:)` but its last (`following`, the statement's own); `u` is the users table.
    package static let columns = """
        u.id, u.name, u.role, u.avatar_image_id, u.created_at,
        (SELECT count(*) FROM comments c WHERE c.author_id = u.id AND c.kind = 'review' AND c.hidden_at IS NULL)::int,
        u.follower_count, u.following_count
        """

    package init(row: PostgresRow) throws { try self.init(row: row, trailing: 0) }

    /// A row of `columns` and `following`, then exactly `trailing` columns the statement reads itself.
    package init(row: PostgresRow, trailing: Int) throws {
        let (id, name, role, avatar, createdAt, reviewCount, followers, followings, following) = try row.decodeAll(
            (String, String, String, String?, Date, Int, Int, Int, Bool).self, trailing: trailing)
        self.id = id
        self.name = name
        self.role = Role(rawValue: role) ?? .user
        self.avatarUrl = avatar.map(ImageURL.path)
        self.createdAt = createdAt
        self.reviewCount = reviewCount
        self.followerCount = followers
        self.followingCount = followings
        self.following = following
    }
}

public struct SessionView: Encodable, Sendable {
    public var token: String
    public var user: UserView
}

/// Image URLs are paths.
public enum ImageURL {
    public static func path(_ id: String) -> String { "/v1/images/\(id)" }
}
