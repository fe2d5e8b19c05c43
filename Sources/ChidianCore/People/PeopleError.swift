/// The failures of following.
public enum PeopleError: DomainError, Equatable {
    case cannotFollowSelf
    case invalidIDs
    case invalidBefore

    public var code: String {
        switch self {
        case .cannotFollowSelf: "cannot_follow_self"
        case .invalidIDs: "invalid_ids"
        case .invalidBefore: "invalid_before"
        }
    }

    public var kind: FailureKind { .invalid }

    public var message: String {
        switch self {
        case .cannotFollowSelf: "You cannot follow yourself."
        case .invalidIDs: "ids must be an array of at most 1000 notification ids."
        case .invalidBefore: "before must be an RFC 3339 date-time."
        }
    }
}
