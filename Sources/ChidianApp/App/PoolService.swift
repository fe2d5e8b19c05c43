import Logging
import PostgresNIO
import ServiceLifecycle

/// A PostgreSQL pool as a service of `serve` whose stop is bounded: on shutdown the pool is cancelled and given
/// `grace` to close its connections, then abandoned with a warning. PostgresNIO's `run()` has been seen to outlive
/// its cancellation (a CLI pool, and a server that never exited after SIGTERM); the process is ending either way.
struct PoolService: Service, CustomStringConvertible {
    let client: PostgresClient
    var grace: Duration = .seconds(10)
    let logger: Logger

    var description: String { "PoolService" }

    func run() async throws {
        let runner = Task { await client.run() }
        // Returns on graceful shutdown, throws on cancellation: the pool stops either way.
        try? await gracefulShutdown()
        await stop(runner, grace: grace, logger: logger)
    }
}

/// Cancels `runner` (a pool's `run()`) and waits at most `grace` for it to end.
func stop(_ runner: Task<Void, Never>, grace: Duration, logger: Logger) async {
    runner.cancel()
    if await !finished(runner, within: grace) {
        logger.warning("a PostgreSQL pool did not stop within \(grace) of its cancellation; abandoned")
    }
}
