import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The figures the cluster's alert rules read (scripts/cluster/alerts.yml) are on `/metrics`.
@Suite struct AlertMetricsTests {
    /// The value of the first line of `text` that starts with `prefix`.
    static func value(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    @Test func theListenersHeartbeatAndThePoolsWaitsArePublished() async throws {
        try await TestApp.run(configure: { $0.cacheEnabled = true }) { client, _ in
            // MUT: a request takes a pooled connection; the listener hears its heartbeat every 150 ms (a loaded
            // machine may take longer: polled for up to 10 s)
            #expect(try await client.send(.get, "/v1/categories").status == .ok)
            var heard: Double?
            for _ in 0..<100 {
                let text = try await client.send(.get, "/metrics").text
                heard = Self.value(text, "chidian_cache_heartbeat_heard_timestamp_seconds ")
                if let heard, heard > 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let text = try await client.send(.get, "/metrics").text
            // validate: a Unix time close to now (other suites' servers in this process publish the same gauge)
            let age = Date().timeIntervalSince1970 - (heard ?? 0)
            #expect(age >= -5 && age < 60, "heartbeat heard \(age) s ago")
            let waits = Self.value(text, "chidian_db_connection_wait_seconds_count{pool=\"primary\"} ") ?? 0
            #expect(waits >= 1)
        }
    }
}
