/// The failures of accounts and sign-in.
public enum AccountError: DomainError, Equatable {
    case nameRequired
    case invalidName(String)
    case weakPassword(min: Int)
    case invalidRole
    case nameTaken(String)
    /// `detail` says which user (by name or id).
    case userNotFound(String)
    case wrongPassword(String)
    case imageNotFound(String)
    case invalidImages(String)
    /// Deleting the account of a manager who still runs live stores (`detail` says how many).
    case storesRemain(String)

    public var code: String {
        switch self {
        case .nameRequired: "name_required"
        case .invalidName: "invalid_name"
        case .weakPassword: "weak_password"
        case .invalidRole: "invalid_role"
        case .nameTaken: "name_taken"
        case .userNotFound: "user_not_found"
        case .wrongPassword: "wrong_password"
        case .imageNotFound: "image_not_found"
        case .invalidImages: "invalid_images"
        case .storesRemain: "stores_remain"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .nameTaken, .storesRemain: .conflict
        case .userNotFound, .imageNotFound: .notFound
        case .wrongPassword: .unauthenticated
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .nameRequired: "The name must not be blank."
        case .invalidName(let reason), .userNotFound(let reason), .wrongPassword(let reason),
            .imageNotFound(let reason), .invalidImages(let reason), .storesRemain(let reason):
            reason
        case .weakPassword(let min): "The password must be at least \(min) characters."
        case .invalidRole: "The role must be \"user\" or \"manager\"."
        case .nameTaken(let name): "The name \(name) is already used."
        }
    }
}
