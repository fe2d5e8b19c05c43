import Logging

/// The pools' background logger, less PostgresNIO's warning about a lease before `run()` has begun. That lease
/// waits for the pool and works; `withRunning` starts `run()` first, yet its thread can still lose to the body's by an
/// instruction on a loaded machine, and the warning then became a second line of a CLI command's one-line error.
/// Every other background message passes.
struct EarlyLeaseFilter: LogHandler {
    var inner: any LogHandler

    func log(event: LogEvent) {
        if event.level == .warning, "\(event.message)".contains("`PostgresClient.run()` hasn't been called yet") {
            return
        }
        inner.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }
}

extension Logger {
    /// This logger, for a pool's background work.
    var poolBackground: Logger {
        var logger = self
        logger.handler = EarlyLeaseFilter(inner: handler)
        return logger
    }
}
