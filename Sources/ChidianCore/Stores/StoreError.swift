/// The failures of stores, categories and promotion.
public enum StoreError: DomainError, Equatable {
    case notFound(id: String)
    /// A store names a category that does not exist (or no longer does).
    case unknownCategory(id: String?)
    case categoryNotFound(id: String)
    case categoryNameTaken(String)
    case invalidCategoryName(String)
    case nameRequired
    case invalidName(String)
    case invalidDescription(String)
    case invalidAddress(String)
    case invalidImages(String)
    case invalidAmount
    /// Only the store's manager (or an admin, for edits) may do this.
    case notOwner(String)

    public var code: String {
        switch self {
        case .notFound: "store_not_found"
        case .unknownCategory: "unknown_category"
        case .categoryNotFound: "category_not_found"
        case .categoryNameTaken: "category_name_taken"
        case .invalidCategoryName: "invalid_category_name"
        case .nameRequired: "name_required"
        case .invalidName: "invalid_name"
        case .invalidDescription: "invalid_description"
        case .invalidAddress: "invalid_address"
        case .invalidImages: "invalid_images"
        case .invalidAmount: "invalid_amount"
        case .notOwner: "not_store_owner"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .notFound, .categoryNotFound: .notFound
        case .categoryNameTaken: .conflict
        case .notOwner: .forbidden
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No store \(id.prefix(64))."
        case .unknownCategory(nil): "The category no longer exists."
        // Echoed only when it could be an id: a detail never carries a client's control characters back.
        case .unknownCategory(let id?) where PlausibleID.check(id): "No category \(id.prefix(64))."
        case .unknownCategory: "No such category."
        case .categoryNotFound(let id): "No category has id \(id.prefix(64))."
        case .categoryNameTaken(let name): "A category named \(name) already exists."
        case .invalidCategoryName(let reason), .invalidName(let reason), .invalidDescription(let reason),
            .invalidAddress(let reason), .invalidImages(let reason), .notOwner(let reason):
            reason
        case .nameRequired: "The store name must not be blank."
        case .invalidAmount: "amount must be a JSON integer from 1 to 1,000,000."
        }
    }
}
