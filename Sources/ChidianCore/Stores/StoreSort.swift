/// The orders of `GET /v1/stores`. Each is a keyset: its keys are carried in the cursor as text.
public enum StoreSort: String, Sendable, CaseIterable {
    /// `rating.score` descending, then id descending.
    case rating
    /// `createdAt` descending, then id descending.
    case newest
    /// Name in code-point order (`COLLATE "C"`), then id ascending.
    case name
    /// `favoriteCount` descending, then id descending.
    case popular
    /// `pricePerPerson` ascending, stores without one last, then id descending.
    case price
    /// `distanceMeters` ascending from `near` (which it needs), then id descending.
    case distance

    /// `?sort=` (absent or empty: `rating`), else 400 `invalid_sort`.
    package init(query: QueryParameters) throws {
        self =
            try query.choice(
                "sort", emptyIsAbsent: true,
                orElse: Problem.badRequest(
                    "invalid_sort", "sort must be one of rating, newest, name, popular, price, distance.")) ?? .rating
    }

    /// The price key of a store without one: above every price, so those stores come last (written into the SQL as
    /// a literal, `keyset`).
    static let noPrice = CommentRules.priceRange.upperBound + 1

    /// The cursor's list name, so a cursor from one order is refused by another.
    var cursorList: String { "stores.\(rawValue)" }

    /// What each sort's cursor holds: its sort key, then the id.
    var cursorKeys: [Cursor.Key] {
        switch self {
        case .rating: return [.number, .id]
        case .newest: return [.timestamp, .id]
        case .name: return [.text(limit: StoreRules.maxNameLength), .id]
        case .popular: return [.integer(0...Int(Int32.max)), .id]
        case .price: return [.integer(1...Self.noPrice), .id]
        case .distance: return [.number, .id]
        }
    }
}
