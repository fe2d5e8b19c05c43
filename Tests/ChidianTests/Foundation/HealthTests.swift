import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct HealthTests {
    @Test func healthReadyAndMetrics() async throws {
        try await TestApp.run { client, _ in
            let health = try await client.send(.get, "/health")
            #expect(health.status == .ok)
            #expect(try health.json()["status"] as? String == "ok")
            #expect(health.headers[.xContentTypeOptions] == "nosniff")
            #expect(health.headers[.xRequestID]?.isEmpty == false)

            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .ok)
            #expect(try ready.json()["status"] as? String == "ready")

            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains("hb_requests"))
        }
    }

    @Test func readyIs503WhenTheSchemaIsBehind() async throws {
        try await TestDatabase.withFresh(migrated: false) { database, url in
            let services = AppServices(
                config: TestApp.testConfig(url: url), database: database, logger: TestDatabase.logger)
            try await buildApplication(services, runDatabase: false).test(.router) { client in
                let ready = try await client.send(.get, "/ready")
                #expect(ready.status == .serviceUnavailable)
                #expect(ready.problemCode == "schema_behind")
            }
        }
    }

    @Test func unreachableDatabaseIsA503WithRetryAfterWithinSeconds() async throws {
        // A port nobody listens on.
        let url = try DatabaseURL("postgres://postgres@127.0.0.1:9/nothing")
        var config = TestApp.testConfig(url: url)
        config.databaseTimeout = .milliseconds(800)
        try await withDatabase(config, logger: TestDatabase.logger) { database in
            let services = AppServices(config: config, database: database, logger: TestDatabase.logger)
            try await buildApplication(services, runDatabase: false).test(.router) { client in
                let ready = try await client.send(.get, "/ready")
                let health = try await client.send(.get, "/health")
                // Bounded, not hung: a hang is the suite watchdog's to name, not a stopwatch's.
                #expect(ready.status == .serviceUnavailable)
                #expect(ready.problemCode == "database_unavailable")
                #expect(ready.headers[.retryAfter] != nil)
                #expect(health.status == .ok)
            }
        }
    }
}
