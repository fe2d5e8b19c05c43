import Foundation

/// A field of a partial update that may be left alone, cleared (`null`) or set.
public enum FieldChange<Value: Sendable & Equatable>: Sendable, Equatable {
    case keep
    case clear
    case set(Value)

    /// Whether the update writes the field at all.
    package var writes: Bool { self != .keep }

    /// The new value (nil when cleared or kept).
    package var value: Value? {
        if case .set(let value) = self { return value }
        return nil
    }
}

/// A store's place and hours as a body gives them: each absent (kept), null (cleared) or a value, already
/// checked (400 `invalid_location`, `invalid_hours`, `invalid_time_zone`).
public struct PlaceFields: Sendable, Equatable {
    public var location: FieldChange<GeoPoint> = .keep
    public var hours: FieldChange<WeeklyHours> = .keep
    /// Cleared means back to the default zone.
    public var timeZone: FieldChange<String> = .keep

    public init(
        location: FieldChange<GeoPoint> = .keep, hours: FieldChange<WeeklyHours> = .keep,
        timeZone: FieldChange<String> = .keep
    ) {
        self.location = location
        self.hours = hours
        self.timeZone = timeZone
    }

    public var isEmpty: Bool { !location.writes && !hours.writes && !timeZone.writes }

    /// From a body's raw values (nil: the key was absent).
    public init(location: JSONValue?, hours: JSONValue?, timeZone: JSONValue?) throws {
        switch location {
        case nil: self.location = .keep
        case .null?: self.location = .clear
        case let value?: self.location = .set(try GeoPoint.location(value))
        }
        switch hours {
        case nil: self.hours = .keep
        case .null?: self.hours = .clear
        case let value?: self.hours = .set(try WeeklyHours.parse(value))
        }
        switch timeZone {
        case nil: self.timeZone = .keep
        case .null?: self.timeZone = .clear
        case .string(let name)?: self.timeZone = .set(try StoreTimeZone.valid(name))
        case _?: throw PlaceError.invalidTimeZone
        }
    }

    /// The bindings a write needs: whether to write each column and its new value.
    package var lat: Double? { location.value?.lat }
    package var lng: Double? { location.value?.lng }
    var hoursJSON: String? { hours.value?.storedJSON }
    /// The zone to write when `timeZone` writes: the given one, or the default when cleared.
    var timeZoneName: String? {
        switch timeZone {
        case .keep: nil
        case .clear: StoreTimeZone.defaultName
        case .set(let name): name
        }
    }
}
