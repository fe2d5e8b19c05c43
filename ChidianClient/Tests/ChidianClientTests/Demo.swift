import Foundation
import Testing

@testable import ChidianClient

/// The server the screen tests walk: `scripts/swift-client-test.sh` starts `chidian serve` on a freshly seeded
/// database (the demo data in seed/) and passes its address as CHIDIAN_URL.
enum Demo {
    static let url: URL? = ProcessInfo.processInfo.environment["CHIDIAN_URL"].flatMap(URL.init(string:))
    static let needsServer = Testing.ConditionTrait.enabled(
        if: url != nil, "needs a running server: run scripts/swift-client-test.sh from the repository root")

    static let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("seed")

    /// A client of its own (its own visitor id and session).
    static func client() throws -> ChidianClient { ChidianClient(baseURL: try #require(url)) }

    /// Signs in one at a time. The server counts each attempt against (name, address) before bcrypt runs and gives
    /// it back on success, so eight suites signing in as Manager4 at once from 127.0.0.1 could pass the five it
    /// allows (429 `too_many_attempts`) when a loaded machine kept them all in flight.
    static func signedIn(_ name: String, _ password: String = "111") async throws -> ChidianClient {
        let client = try client()
        try await SignIns.shared.enqueue { try await client.login(name: name, password: password) }.value
        return client
    }

    /// A name no other test or run uses (at most 32 characters).
    static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)
    }

    /// One of the demo data's PNGs.
    static func png(_ name: String = "s001_1") throws -> Data {
        try Data(contentsOf: seed.appendingPathComponent("images/\(name).png"))
    }

    /// Runs `body` and returns the `ChidianError` it must throw.
    static func refusal<T>(_ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> ChidianError
    {
        do {
            let value = try await body()
            Issue.record("expected a refusal, got \(value)", sourceLocation: sourceLocation)
            throw CancellationError()
        } catch let error as ChidianError {
            return error
        }
    }
}

/// Runs sign-ins one after another, in the order asked.
actor SignIns {
    static let shared = SignIns()
    private var tail = Task<Void, Never> {}

    func enqueue(_ body: @escaping @Sendable () async throws -> Void) -> Task<Void, any Error> {
        let previous = tail
        let task = Task<Void, any Error> {
            await previous.value
            try await body()
        }
        tail = Task { _ = await task.result }
        return task
    }
}
