import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /v1/stores/{id}/insights` (its manager, admins) and `GET /v1/admin/stats` (admins).
struct InsightsController {
    let insights: InsightRepository
    let database: Database
    let clock: @Sendable () -> Date

    init(database: Database, clock: @escaping @Sendable () -> Date = Date.init) {
        insights = InsightRepository(database: database)
        self.database = database
        self.clock = clock
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/insights", use: store)
        group.get("admin/stats", use: platform)
    }

    /// The store's insights once the viewer is known to be its manager or an admin.
    func storeInsights(_ request: Request, context: AppRequestContext) async throws -> StoreInsights {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let facts = try await insights.facts(storeID: id)
        guard user.role == .admin || user.id == facts.managerID else {
            throw StoreError.notOwner("Only the store's manager or an admin sees its insights.")
        }
        let query = request.uri.queryParameters
        let zone = TimeZone(identifier: facts.timeZone) ?? TimeZone(identifier: PlatformStats.timeZone)!
        let range = try InsightRange(
            from: query["from"].map(String.init), to: query["to"].map(String.init), timeZone: zone, now: clock())
        return try await insights.store(id, facts: facts, range: range)
    }

    @Sendable func store(_ request: Request, context: AppRequestContext) async throws -> Response {
        let format = request.uri.queryParameters["format"].map(String.init)
        guard format == nil || format == "json" || format == "csv" else {
            throw Problem.badRequest("invalid_format", "format must be json or csv.")
        }
        let result = try await storeInsights(request, context: context)
        var headers: HTTPFields = [.cacheControl: "private, no-store"]
        guard format == "csv" else {
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(
                status: .ok, headers: headers,
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONWriter.bytes(of: result))))
        }
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] =
            "attachment; filename=\"insights-\(result.storeId)-\(result.days.first?.date ?? "")-\(result.days.last?.date ?? "").csv\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: result.csv)))
    }

    func platformStats(_ request: Request, context: AppRequestContext) async throws -> PlatformStats {
        _ = try context.requireRole([.admin], code: "admin_required", detail: "Only admins see the platform's figures.")
        let query = request.uri.queryParameters
        let range = try InsightRange(
            from: query["from"].map(String.init), to: query["to"].map(String.init),
            timeZone: TimeZone(identifier: PlatformStats.timeZone)!, now: clock())
        return try await PlatformStats.load(database, range: range)
    }

    @Sendable func platform(_ request: Request, context: AppRequestContext) async throws -> Response {
        let stats = try await platformStats(request, context: context)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONWriter.bytes(of: stats))))
    }
}
