import Logging
import ServiceLifecycle

/// `coupon_expiring` in `serve`: every minute, holders of unused claims that expire within 24 h hear of it once
/// (migration 030's `coupon_reminders`; any number of servers share the work, none tells a claim twice).
public struct CouponReminders: Service {
    package let database: Database
    package let interval: Duration

    public init(database: Database, interval: Duration = .seconds(60)) {
        self.database = database
        self.interval = interval
    }

    /// Tells every claim now due, 500 at a time; how many were told.
    @discardableResult
    public static func send(_ database: Database) async throws -> Int {
        var told = 0
        while true {
            let rows = try await database.query("SELECT coupon_reminders(500)")
            let batch = try rows[0].decodeAll(Int.self)
            told += batch
            if batch < 500 { return told }
        }
    }

    public func run() async throws {
        // Shutdown cancels the sleep: the normal end, not a failure.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Self.send(database)
                } catch is CancellationError {
                    return
                } catch {
                    database.logger.warning("coupon reminders failed", metadata: DatabaseErrors.metadata(any: error))
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
