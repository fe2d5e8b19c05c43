import Logging
import Synchronization
import Testing

@testable import ChidianCore

/// The pools' background logger drops PostgresNIO's early-lease warning and nothing else.
@Suite struct EarlyLeaseFilterTests {
    final class Captured: LogHandler, Sendable {
        let lines = Mutex<[String]>([])
        func log(event: LogEvent) { lines.withLock { $0.append("\(event.level) \(event.message)") } }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { nil }
            set {}
        }
        var metadata: Logger.Metadata {
            get { [:] }
            set {}
        }
        var logLevel: Logger.Level {
            get { .trace }
            set {}
        }
    }

    @Test func onlyTheEarlyLeaseWarningIsDropped() {
        let captured = Captured()
        let logger = Logger(label: "test", factory: { _ in captured }).poolBackground
        logger.warning(
            "Trying to lease connection from `PostgresClient`, but `PostgresClient.run()` hasn't been called yet.")
        logger.warning("Connection closed")
        logger.error("something else")
        #expect(captured.lines.withLock { $0 } == ["warning Connection closed", "error something else"])
    }
}
