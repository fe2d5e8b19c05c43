/// The failures of positions, schedules and picks.
public enum PlaceError: DomainError, Equatable {
    case invalidLocation
    case invalidHours(String)
    case invalidTimeZone
    case invalidNear
    case invalidRadius
    case nearRequired
    case invalidOpen
    case invalidSkip
    /// `maxPrice` of a list or a pick.
    case invalidMaxPrice
    case nothingToPick

    public var code: String {
        switch self {
        case .invalidLocation: "invalid_location"
        case .invalidHours: "invalid_hours"
        case .invalidTimeZone: "invalid_time_zone"
        case .invalidNear: "invalid_near"
        case .invalidRadius: "invalid_radius"
        case .nearRequired: "near_required"
        case .invalidOpen: "invalid_open"
        case .invalidSkip: "invalid_skip"
        case .invalidMaxPrice: "invalid_price"
        case .nothingToPick: "nothing_to_pick"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .nothingToPick: .notFound
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .invalidLocation:
            "location must be null or {\"lat\": -90 to 90, \"lng\": -180 to 180} with numbers."
        case .invalidHours(let reason): reason
        case .invalidTimeZone: "timeZone must be an IANA time zone name such as Asia/Shanghai."
        case .invalidNear: "near must be LAT,LNG in degrees (latitude -90 to 90, longitude -180 to 180)."
        case .invalidRadius: "radius must be an integer number of metres from 1 to 50000."
        case .nearRequired: "sort=distance needs near=LAT,LNG."
        case .invalidOpen: "open must be now."
        case .invalidSkip: "skip must be a comma-separated list of at most 50 store ids."
        case .invalidMaxPrice: "maxPrice must be an integer from 1 to 100000."
        case .nothingToPick: "No open store matches; widen the radius or the budget."
        }
    }
}
