import Synchronization

/// When this server last began a request that work of lower priority should make way for. A coupon rush is
/// thousands of claims in a second; pages and everything else asked of the server meanwhile come first, and the
/// claims take what is left (`CouponService`). Marked by `ForegroundTrafficMiddleware` for every request but a
/// claim.
public final class ForegroundTraffic: Sendable {
    private let origin = ContinuousClock.now
    /// Nanoseconds since `origin` of the last mark.
    private let last = Atomic<Int64>(.min / 2)
    /// How long one request keeps the server "in use": a page a few milliseconds apart from the next is traffic.
    public let window: Duration

    public init(window: Duration = .milliseconds(200)) {
        self.window = window
    }

    public func mark() {
        last.store(now, ordering: .relaxed)
    }

    /// Whether a foreground request began within `window`.
    public var isPresent: Bool {
        now - last.load(ordering: .relaxed) < Self.nanoseconds(window)
    }

    private var now: Int64 { Self.nanoseconds(ContinuousClock.now - origin) }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
