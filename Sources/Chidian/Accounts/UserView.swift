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

    /// Columns matching `init(row:)`; `u` is the users table.
    static let columns = """
        u.id, u.name, u.role, u.avatar_image_id, u.created_at,
        (SELECT count(*) FROM comments c WHERE c.author_id = u.id AND c.kind = 'review' AND c.hidden_at IS NULL)::int
        """

    init(row: PostgresRow) throws {
        let (id, name, role, avatar, createdAt, reviewCount) = try row.decodeAll(
            (String, String, String, String?, Date, Int).self)
        self.id = id
        self.name = name
        self.role = Role(rawValue: role) ?? .user
        self.avatarUrl = avatar.map(ImageURL.path)
        self.createdAt = createdAt
        self.reviewCount = reviewCount
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
