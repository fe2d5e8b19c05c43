import Foundation

/// A WGS-84 position in degrees, as browsers report it.
public struct GeoPoint: Sendable, Equatable, Hashable {
    public var lat: Double
    public var lng: Double

    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// The contract's sphere: distances are great circles on a radius of 6,371 km.
    public static let earthRadius = 6_371_000.0

    /// Latitude in -90...90 and longitude in -180...180, both finite.
    public var isValid: Bool {
        lat.isFinite && lng.isFinite && (-90...90).contains(lat) && (-180...180).contains(lng)
    }

    /// The great-circle distance in metres (haversine, which stays exact for short distances).
    public func distance(to other: GeoPoint) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (other.lat - lat) * toRadians
        let dLng = (other.lng - lng) * toRadians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(lat * toRadians) * cos(other.lat * toRadians) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(a)))
    }

    /// `?near=LAT,LNG`, or 400 `invalid_near`.
    public static func near(query raw: String) throws -> GeoPoint {
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Self.number(parts[0]), let lng = Self.number(parts[1]) else {
            throw PlaceError.invalidNear
        }
        let point = GeoPoint(lat: lat, lng: lng)
        guard point.isValid else { throw PlaceError.invalidNear }
        return point
    }

    /// A plain decimal number (no "nan", "inf" or hex, which `Double.init` would take).
    package static func number(_ text: Substring) -> Double? {
        // Nothing to trim, the usual case: without Foundation's character sets (a sixtieth of a pick's CPU).
        if !text.isEmpty, text.utf8.count <= 32,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B })
        {
            return Double(text)
        }
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.count <= 32,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") })
        else { return nil }
        return Double(text)
    }

    /// A body's `location` (`{lat, lng}` numbers), or 400 `invalid_location`.
    public static func location(_ value: JSONValue) throws -> GeoPoint {
        guard case .object(let members) = value, Set(members.keys) == ["lat", "lng"],
            let lat = members["lat"]?.numberValue, let lng = members["lng"]?.numberValue
        else { throw PlaceError.invalidLocation }
        let point = GeoPoint(lat: lat, lng: lng)
        guard point.isValid else { throw PlaceError.invalidLocation }
        return point
    }
}

extension JSONValue {
    /// The value when it is a JSON number, integer or not.
    var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}

/// `?near=` and `?radius=` together: where to look and how far.
public struct NearQuery: Sendable, Equatable {
    public var point: GeoPoint
    public var radius: Int

    public static let defaultRadius = 3000
    public static let radiusRange = 1...50_000

    public init(point: GeoPoint, radius: Int = NearQuery.defaultRadius) {
        self.point = point
        self.radius = radius
    }

    /// Both parameters from a query string: nil without `near`; 400 `invalid_near` / `invalid_radius`.
    /// A radius without `near` is still checked, so a mistyped one is never silently ignored.
    public static func parse(near: String?, radius: String?) throws -> NearQuery? {
        var meters = defaultRadius
        if let radius, !radius.isEmpty {
            guard radius.count <= 12, radius.allSatisfy(\.isASCII), let value = Int(radius),
                radiusRange.contains(value)
            else { throw PlaceError.invalidRadius }
            meters = value
        }
        guard let near, !near.isEmpty else { return nil }
        return NearQuery(point: try GeoPoint.near(query: near), radius: meters)
    }
}
