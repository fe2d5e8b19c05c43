import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

#if canImport(Glibc)
    import Glibc
#endif

/// What a real `chidian serve` writes of its counts: everything on a clean stop, and on a crash everything but
/// what came after its last flush (INSIGHTS_FLUSH_SECONDS).
@Suite(.serialized) struct InsightFlushProcessTests {
    static func json(_ object: [String: Any]) -> String { ServerProcessTests.json(object) }

    /// A manager's store on `server`, returning its id.
    static func store(_ server: ServerProcess, _ database: Database) async throws -> String {
        let category = try await StoreAdmin(database: database).addCategory(name: "面馆").id
        let token = try #require(
            try server.request(
                "POST", "/v1/auth/register",
                body: json(["name": "店主", "password": "manager password", "role": "manager"])
            ).json["token"] as? String)
        let created = try server.request(
            "POST", "/v1/stores", body: json(["name": "兰州拉面", "categoryId": category]), token: token)
        return try #require(created.json["id"] as? String, "\(created.body)")
    }

    static func views(_ database: Database, _ storeID: String) async throws -> Int {
        try await database.query(
            "SELECT coalesce(sum(views), 0)::int FROM store_days WHERE store_id = \(storeID)")[0].decode(Int.self)
    }

    @Test func aCleanStopWritesEveryCount() async throws {
        try await TestDatabase.withFresh { database, url in
            // setup: a flush interval longer than the test, so only the stop writes
            let server = try await ServerProcess(databaseURL: url, environment: ["INSIGHTS_FLUSH_SECONDS": "10"])
            defer { server.stop() }
            let storeID = try await Self.store(server, database)
            // MUT
            for _ in 0..<25 { #expect(try server.request("GET", "/v1/stores/\(storeID)").status == 200) }
            server.stop()
            // validate
            #expect(try await Self.views(database, storeID) == 25)
        }
    }

    @Test func aCrashLosesOnlyWhatCameAfterTheLastFlush() async throws {
        try await TestDatabase.withFresh { database, url in
            // setup
            let server = try await ServerProcess(databaseURL: url, environment: ["INSIGHTS_FLUSH_SECONDS": "1"])
            defer { server.stop() }
            let storeID = try await Self.store(server, database)
            for _ in 0..<30 { _ = try server.request("GET", "/v1/stores/\(storeID)") }
            // The periodic flush writes them without any stop, however late a loaded machine runs it.
            while try await Self.views(database, storeID) < 30 {
                // timing: a poll with no bound; it ends once the flush has written them
                try await Task.sleep(for: .milliseconds(100))
            }
            let flushed = try await Self.views(database, storeID)
            // MUT: ten more, then SIGKILL at once
            for _ in 0..<10 { _ = try server.request("GET", "/v1/stores/\(storeID)") }
            server.child.signal(SIGKILL)
            _ = await server.child.exited()
            // validate: the flushed ones stay; of the last ten, at most the unflushed are gone
            let after = try await Self.views(database, storeID)
            #expect(flushed == 30)
            #expect((30...40).contains(after))
        }
    }
}
