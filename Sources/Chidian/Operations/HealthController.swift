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

    func ready() async throws -> JSONResponse<[String: String]> {
        guard try await Readiness.schemaIsCurrent(database: database, migrator: migrator) else {
            throw Problem(
                .serviceUnavailable, "schema_behind", "The database schema is not current; run `chidian migrate`.")
        }
        return JSONResponse(["status": "ready"])
    }
}
