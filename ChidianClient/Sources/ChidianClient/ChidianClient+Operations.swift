import Foundation
import OpenAPIRuntime

/// The operations routes, for a status screen or a probe: liveness, readiness, metrics and the document.
extension ChidianClient {
    /// `/health`: the process answers (`"ok"`).
    @discardableResult
    public func health() async throws -> String {
        let output = try await api.health()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json, as: Status.self).status
    }

    /// `/ready`: the database answers and the schema is current; else `.databaseUnavailable` or `.schemaBehind`.
    public func ready() async throws -> Readiness {
        let output = try await api.ready()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// `/metrics`: the Prometheus text.
    public func metrics() async throws -> String {
        let output = try await api.metrics()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try await String(collecting: ok.body.plainText, upTo: 16 << 20)
    }

    /// `/openapi.json`: the OpenAPI document the server serves (as JSON).
    public func openAPIDocument() async throws -> Data {
        let output = try await api.openapi()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try JSONEncoder().encode(ok.body.json)
    }

    private struct Status: Decodable { var status: String }
}
