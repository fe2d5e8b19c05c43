import HTTPTypes
import Hummingbird
import Logging

/// `/health` (the process runs), `/ready` (the database answers and the schema is current), `/metrics`.
struct HealthController {
    let database: Database
    let migrator: Migrator

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/health") { _, _ in JSONResponse(["status": "ok"]) }
        router.get("/ready") { _, _ in try await ready() }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: MetricsRegistry.render())))
        }
    }

    func ready() async throws -> JSONResponse<Ready> {
        guard try await Readiness.schemaIsCurrent(database: database, migrator: migrator) else {
            throw Problem(
                .serviceUnavailable, "schema_behind", "The database schema is not current; run `chidian migrate`.")
        }
        return JSONResponse(Ready(status: "ready", pools: Readiness.pools(database)))
    }
}

/// `/ready`'s answer: the primary answered; each replica as the monitor last saw it.
struct Ready: Encodable, Sendable {
    struct Pool: Encodable, Sendable {
        let name: String
        let role: String
        let healthy: Bool
        let lagSeconds: Double?
        let replayLSN: String?
        let problem: String?
    }
    let status: String
    let pools: [Pool]
}
