import Foundation

/// The server's own time: the wall clock, or, for benchmarks and evaluations, a clock set to start at
/// `CLOCK_START` (ISO 8601) and run `CLOCK_RATE` times as fast. It is what "open now", the pick, interest decay and
/// the feed's ages read; PostgreSQL's `now()` (sessions, coupons' claims) keeps the wall clock.
public struct ServerClock: Sendable, Equatable {
    package var start: Date
    package var rate: Double
    /// The wall-clock instant the set clock shows `start`.
    package var origin: Date

    package init(start: Date, rate: Double = 1, origin: Date = Date()) {
        self.start = start
        self.rate = rate
        self.origin = origin
    }

    /// The set clock's reading at wall-clock `wall`.
    package func reading(at wall: Date) -> Date {
        start.addingTimeInterval(rate * wall.timeIntervalSince(origin))
    }

    /// This process's clock, read from the environment once (nil: the wall clock).
    package static let current: ServerClock? = try? parse(ProcessInfo.processInfo.environment).get()

    /// Now, by this process's clock.
    @inline(__always)
    public static func now() -> Date {
        guard let current else { return Date() }
        return current.reading(at: Date())
    }

    /// `CLOCK_START` and `CLOCK_RATE` (1 to 100,000; 1 without a start), or a message naming what is wrong.
    package static func parse(_ environment: [String: String]) -> Result<ServerClock?, ClockSettingError> {
        let rawRate = environment["CLOCK_RATE"].flatMap { $0.isEmpty ? nil : $0 }
        let rate: Double
        if let rawRate {
            guard let value = Double(rawRate), value >= 1, value <= 100_000 else {
                return .failure(ClockSettingError(message: "CLOCK_RATE must be a number from 1 to 100000"))
            }
            rate = value
        } else {
            rate = 1
        }
        guard let raw = environment["CLOCK_START"], !raw.isEmpty else {
            return rawRate == nil
                ? .success(nil) : .failure(ClockSettingError(message: "CLOCK_RATE needs CLOCK_START"))
        }
        guard let start = try? Date(raw, strategy: .iso8601) else {
            let example = "2026-11-30T12:00:00+08:00"
            return .failure(
                ClockSettingError(message: "CLOCK_START is not an ISO 8601 time with its offset (\(example))"))
        }
        return .success(ServerClock(start: start, rate: rate))
    }
}

package struct ClockSettingError: Error, Equatable {
    package let message: String
}
