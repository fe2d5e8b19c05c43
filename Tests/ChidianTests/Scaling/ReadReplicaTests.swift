import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Reads on replicas (`DATABASE_READ_URLS`): the choice of replica, the read-your-writes marker, and a replica
/// that is down or is not a replica at all. Streaming replication itself runs in `make cluster-test`.
@Suite struct ReadReplicaTests {
    @Test func lsnsParseCompareAndPrintAsPostgreSQLDoes() {
        #expect(LSN("16/B374D848")?.value == 0x16_B374_D848)
        #expect(LSN("0/0")?.value == 0)
        #expect(LSN("16/B374D848")?.description == "16/B374D848")
        #expect(LSN("0/10")! < LSN("1/0")!)
        for bad in ["", "16", "/1", "1/", "1/2/3", "G/1", "123456789/1", "1/ 2", "-1/2"] {
            #expect(LSN(Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test func aReplicaServesAReadOnlyWhenHealthyWithinTheLagBoundAndPastTheReadersWrite() throws {
        // setup: pools that are never run (choosing one opens no connection)
        let logger = Logger(label: "test")
        let url = try DatabaseURL("postgres://nobody@127.0.0.1:1/none")
        let pool = { Database(url: url, poolSize: 1, timeout: .milliseconds(100), logger: logger) }
        let replicas = ReplicaSet(primary: pool(), replicas: [pool(), pool()], maxLag: .seconds(5))
        let at = { (lsn: UInt64, lag: Double) in
            ReplicaSet.Status(healthy: true, replayLSN: LSN(lsn), lagSeconds: lag)
        }
        // MUT / validate: not yet checked → the primary
        #expect(replicas.choose(atLeast: nil) == nil)
        replicas.record(at(100, 0), at: 0)
        replicas.record(at(300, 1), at: 1)
        #expect(Set((0..<4).compactMap { _ in replicas.choose(atLeast: nil) }) == [0, 1])
        #expect(replicas.choose(atLeast: LSN(200)) == 1)
        #expect(replicas.choose(atLeast: LSN(301)) == nil)
        replicas.record(at(300, 6), at: 1)
        #expect(replicas.choose(atLeast: nil) == 0)
        replicas.markDown(0, "unreachable")
        #expect(replicas.choose(atLeast: nil) == nil)
    }

    @Test func theMarkerIsTheLaterOfHeaderAndCookieAndIgnoresGarbage() {
        var request = Request.sample(headers: [
            .chidianLSN: "0/20", .cookie: "a=b; chidian_lsn=0/30; c=d",
        ])
        #expect(ReadYourWritesMiddleware.marker(in: request) == LSN(0x30))
        request = Request.sample(headers: [.chidianLSN: "nonsense", .cookie: "chidian_lsn=zz"])
        #expect(ReadYourWritesMiddleware.marker(in: request) == nil)
    }

    @Test func aReplicaThatIsDownIsSkippedAndReadyShowsIt() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let closed = try ServerProcess.freePort()
        let server = try await ServerProcess(
            databaseURL: url,
            environment: [
                "DATABASE_READ_URLS": "postgres://postgres@127.0.0.1:\(closed)/chidian",
                "DB_TIMEOUT_MS": "20000",
            ])
        defer { server.stop() }
        // MUT
        let list = try server.request("GET", "/v1/stores")
        let (status, pools) = try await Self.ready(server, untilReplicaProblem: "unreachable")
        // validate: the read went to the primary, never waiting on the replica's pool (the pools' read counters say
        // so; a stopwatch here measured the machine)
        #expect(list.status == 200, "\(list.body)")
        let metrics = try server.request("GET", "/metrics").body.split(separator: "\n")
        func reads(_ pool: String) -> Double? {
            let prefix = "chidian_db_reads_total{pool=\"\(pool)\"} "
            return metrics.first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
        }
        #expect((reads("primary") ?? 0) >= 1)
        #expect((reads("replica1") ?? 0) == 0)
        #expect(status == 200)
        #expect(pools.map { $0["name"] as? String } == ["primary", "replica1"])
        #expect(pools[1]["healthy"] as? Bool == false)
        #expect(pools[1]["problem"] as? String == "unreachable")
    }

    /// With replicas, the primary's reads keep their route's deadline: the app's pool on the primary had lost its
    /// deadlines, so reads ran under the writes' one (CI saw a read answered 503 within the writes' 2 s).
    @Test func withReplicasTheRoutesDeadlineStillAppliesOnThePrimary() async throws {
        try await TestDatabase.withFresh { _, url in
            // setup
            var config = TestApp.testConfig(url: url)
            config.readDatabaseURLs = ["postgres://postgres@127.0.0.1:\(try ServerProcess.freePort())/chidian"]
            let primary = Database(
                url: url, poolSize: 1, timeout: .seconds(30), statementTimeout: .seconds(20),
                logger: TestDatabase.logger)
            let database = try Server.withReplicas(primary, config: config, logger: TestDatabase.logger)
            try await withRunning(primary.client, logger: TestDatabase.logger) {
                // MUT: what a read route's statement runs under, then a write's on the same connection
                let read = try await StatementDeadlines.$route.withValue(.milliseconds(1234)) {
                    try await database.query("SHOW statement_timeout")[0].decode(String.self)
                }
                let write = try await database.query("SHOW statement_timeout")[0].decode(String.self)
                // validate
                #expect(read == "1234ms")
                #expect(write == "20s")
            }
        }
    }

    /// `/ready` once the monitor has judged the replica as `problem` says (a busy machine makes the first checks
    /// slow; no bound): its status and pools.
    static func ready(_ server: ServerProcess, untilReplicaProblem problem: String) async throws
        -> (Int, [[String: Any]])
    {
        while true {
            let ready = try server.request("GET", "/ready")
            let last = (ready.status, ready.json["pools"] as? [[String: Any]] ?? [])
            if last.1.count == 2, last.1[1]["problem"] as? String == problem { return last }
            // timing: a poll with no bound; it ends once the server reports the replica's problem
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func aPrimaryNamedAsAReplicaIsNotUsedAsOne() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let server = try await ServerProcess(databaseURL: url, environment: ["DATABASE_READ_URLS": url.description])
        defer { server.stop() }
        // MUT
        let (_, pools) = try await Self.ready(server, untilReplicaProblem: "not a replica (not in recovery)")
        // validate
        try #require(pools.count == 2)
        #expect(pools[1]["healthy"] as? Bool == false)
        #expect(pools[1]["problem"] as? String == "not a replica (not in recovery)")
    }

    @Test func aWriteAnswersWithItsPositionOnlyWhenThereAreReplicas() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        let plain = try await ServerProcess(databaseURL: url)
        defer { plain.stop() }
        let replicated = try await ServerProcess(databaseURL: url, environment: ["DATABASE_READ_URLS": url.description])
        defer { replicated.stop() }
        let body = ServerProcessTests.json(["name": "写入者", "password": "writes things"])
        // MUT
        let without = try plain.request("POST", "/v1/auth/register", body: body)
        let login = try replicated.request("POST", "/v1/auth/login", body: body)
        let failed = try replicated.request("POST", "/v1/auth/login", body: "{}")
        // validate
        #expect(without.status == 201 && without.headers["chidian-lsn"] == nil)
        #expect(login.status == 200)
        let lsn = try #require(login.headers["chidian-lsn"])
        #expect(LSN(Substring(lsn)) != nil)
        #expect(login.headers["set-cookie"]?.hasPrefix("chidian_lsn=\(lsn); Max-Age=10; Path=/; HttpOnly") == true)
        #expect(failed.status == 400 && failed.headers["chidian-lsn"] == nil)
    }
}

extension Request {
    /// A request to `/` with these headers, for middleware that only reads headers.
    static func sample(headers: HTTPFields) -> Request {
        Request(
            head: .init(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: headers),
            body: .init(buffer: .init()))
    }
}
