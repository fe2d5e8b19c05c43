import ChidianCore
import HTTPTypes
import Hummingbird
import Logging

/// `/health` (the process runs), `/ready` (the database answers and the schema is current), `/metrics`.
package struct HealthController {
    let readiness: Readiness

    package init(readiness: Readiness) {
        self.readiness = readiness
    }

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/health") { _, _ in JSONResponse(["status": "ok"]) }
        router.get("/ready") { _, _ in try await ready() }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: MetricsRegistry.render())))
        }
    }

    func ready() async throws -> JSONResponse<Ready> {
        guard try await readiness.schemaIsCurrent() else {
            throw Problem(
                .serviceUnavailable, "schema_behind", "The database schema is not current; run `chidian migrate`.")
        }
        return JSONResponse(Ready(status: "ready", pools: readiness.pools()))
    }
}
