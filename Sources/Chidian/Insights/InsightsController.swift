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

    /// The store's facts once the viewer is known to be its manager or an admin (else 403 `not_store_owner`).
    func permitted(_ user: AuthUser, storeID: String) async throws -> InsightRepository.StoreFacts {
        let facts = try await insights.facts(storeID: storeID)
        guard user.role == .admin || user.id == facts.managerID else {
            throw StoreError.notOwner("Only the store's manager or an admin sees its insights.")
        }
        return facts
    }

    @Sendable func store(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let facts = try await permitted(user, storeID: try context.parameters.require("id"))
        let query = request.uri.queryParameters
        let format = query["format"].map(String.init)
        guard format == nil || format == "json" || format == "csv" else {
            throw Problem.badRequest("invalid_format", "format must be json or csv.")
        }
        let range = try InsightRange(
            from: query["from"].map(String.init), to: query["to"].map(String.init), timeZone: facts.zone,
            now: clock())
        let result = try await insights.store(try context.parameters.require("id"), facts: facts, range: range)
        if format == "csv" { return Self.csv(result) }
        return try Self.unshared(WrittenJSON(body: result).response(from: request, context: context))
    }

    /// Figures a manager or admin paid for: never stored by a shared cache.
    static func unshared(_ response: Response) -> Response {
        var response = response
        response.headers[.cacheControl] = "private, no-store"
        return response
    }

    /// The days as a CSV download, for the API and the manager's page alike.
    static func csv(_ result: StoreInsights) -> Response {
        let name = "insights-\(result.storeId)-\(result.days.first?.date ?? "")-\(result.days.last?.date ?? "").csv"
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .cacheControl: "private, no-store",
                .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: result.csv)))
    }

    @Sendable func platform(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole([.admin], code: "admin_required", detail: "Only admins see the platform's figures.")
        let query = request.uri.queryParameters
        let range = try InsightRange(
            from: query["from"].map(String.init), to: query["to"].map(String.init),
            timeZone: TimeZone(identifier: PlatformStats.timeZone)!, now: clock())
        let stats = try await PlatformStats.load(database, range: range)
        return try Self.unshared(WrittenJSON(body: stats).response(from: request, context: context))
    }
}
