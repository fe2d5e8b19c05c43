import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /v1/stores/{id}/insights` (its manager, admins) and `GET /v1/admin/stats` (admins).
struct InsightsController {
    let service: InsightService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/insights", use: store)
        group.get("admin/stats", use: platform)
    }

    @Sendable func store(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let facts = try await service.permitted(user, storeID: try context.parameters.require("id"))
        let query = QueryParameters(request)
        let format: Format? = try query.choice(
            "format", orElse: Problem.badRequest("invalid_format", "format must be json or csv."))
        let range = try InsightRange(from: query["from"], to: query["to"], timeZone: facts.zone, now: service.clock())
        let result = try await service.insights.store(try context.parameters.require("id"), facts: facts, range: range)
        if format == .csv { return result.download }
        return try Self.unshared(WrittenJSON(body: result).response(from: request, context: context))
    }

    enum Format: String {
        case json, csv
    }

    /// Figures a manager or admin paid for: never stored by a shared cache.
    static func unshared(_ response: Response) -> Response {
        var response = response
        response.headers[.cacheControl] = "private, no-store"
        return response
    }

    @Sendable func platform(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.requireRole([.admin], code: "admin_required", detail: "Only admins see the platform's figures.")
        let query = QueryParameters(request)
        let range = try InsightRange(
            from: query["from"], to: query["to"], timeZone: TimeZone(identifier: PlatformStats.timeZone)!,
            now: service.clock())
        let stats = try await service.platform(range)
        return try Self.unshared(WrittenJSON(body: stats).response(from: request, context: context))
    }
}
