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
        // timing: a clock read as a value to compare with the gauge's (a Unix time), not a bound on how long anything took
        let began = Date().timeIntervalSince1970
        try await TestApp.run(configure: { $0.cacheEnabled = true }) { client, _ in
            // MUT: a request takes a pooled connection; `TestApp.run` has awaited the listener's first heartbeat
            #expect(try await client.send(.get, "/v1/categories").status == .ok)
            let text = try await client.send(.get, "/metrics").text
            // validate: a Unix time since this test began (other suites' servers in this process publish the same
            // gauge, only ever later)
            let heard = Self.value(text, "chidian_cache_heartbeat_heard_timestamp_seconds ") ?? 0
            #expect(heard >= began.rounded(.down), "heartbeat heard at \(heard), test began at \(began)")
            let waits = Self.value(text, "chidian_db_connection_wait_seconds_count{pool=\"primary\"} ") ?? 0
            #expect(waits >= 1)
            // a write waits for its fence, and how long is published beside the pool's waits
            _ = try await client.register("围栏")
            let fenced = try await client.send(.get, "/metrics").text
            #expect((Self.value(fenced, "chidian_cache_fence_wait_seconds_count ") ?? 0) >= 1)
        }
    }
}
