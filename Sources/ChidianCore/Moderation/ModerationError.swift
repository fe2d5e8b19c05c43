/// The failures of reports and the moderation queue.
public enum ModerationError: DomainError, Equatable {
    case adminRequired
    case invalidReason
    case invalidNote(max: Int)
    case alreadyReported
    case invalidAction
    case invalidStatus

    public var code: String {
        switch self {
        case .adminRequired: "admin_required"
        case .invalidReason: "invalid_reason"
        case .invalidNote: "invalid_note"
        case .alreadyReported: "already_reported"
        case .invalidAction: "invalid_action"
        case .invalidStatus: "invalid_status"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .adminRequired: .forbidden
        case .alreadyReported: .conflict
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .adminRequired: "Only admins moderate."
        case .invalidReason: "reason must be one of spam, offensive, off_topic, fake, other."
        case .invalidNote(let max): "note is text of at most \(max) characters."
        case .alreadyReported: "You have already reported this comment; an admin will look at it."
        case .invalidAction: "action must be one of hide, restore, dismiss."
        case .invalidStatus: "status must be open or closed."
        }
    }
}
