import Foundation

/// A user's report of a comment.
public struct ReportView: Encodable, Sendable, Equatable {
    public var id: String
    public var commentId: String
    public var reporterId: String
    public var reason: String
    @Nullable public var note: String?
    public var createdAt: Date
}

/// One reported comment in the moderation queue, with its reports (newest first).
public struct ModerationItem: Encodable, Sendable, Equatable {
    public var comment: CommentView
    public var reports: [ReportView]
    public var reportCount: Int
    /// `open` while any report is open, else `closed`.
    public var status: String
    public var hidden: Bool
}

/// One moderation action, as logged.
public struct ModerationLogEntry: Encodable, Sendable, Equatable {
    public var commentId: String
    public var action: String
    /// Null for actions taken with the CLI.
    @Nullable public var adminId: String?
    @Nullable public var note: String?
    public var createdAt: Date
}

public enum ModerationAction: String, Sendable, CaseIterable {
    case hide, restore, dismiss
}
