/// The failures of search and of the dish vocabulary.
public enum SearchError: DomainError, Equatable {
    case queryRequired
    case queryTooLong(max: Int)
    case dishExists(String)
    case invalidDishName(String)

    public var code: String {
        switch self {
        case .queryRequired: "query_required"
        case .queryTooLong: "query_too_long"
        case .dishExists: "dish_exists"
        case .invalidDishName: "invalid_dish_name"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .dishExists: .conflict
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .queryRequired: "q must not be blank."
        case .queryTooLong(let max): "q must be at most \(max) characters."
        case .dishExists(let name): "\(name) is already in the dish vocabulary."
        case .invalidDishName(let reason): reason
        }
    }
}
