import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Reports (any signed-in user) and the moderation queue (admins only: else 403 `admin_required`).
struct ModerationController {
    let moderation: Moderation

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("comments/:id/reports", use: report)
        group.get("moderation/reports", use: queue)
        group.post("moderation/comments/:id", use: act)
        group.get("moderation/log", use: log)
    }

    struct ReportBody: Decodable {
        var reason: String?
        var note: String?
    }

    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        ReportView
    > {
        let user = try context.requireUser()
        var request = request
        let body = try await request.decodeJSON(ReportBody.self)
        let report = try await moderation.report(
            commentID: try context.parameters.require("id"), reporterID: user.id, reason: body.reason ?? "",
            note: try Moderation.validNote(body.note))
        return JSONResponse(report, status: .created)
    }

    func requireAdmin(_ context: AppRequestContext) throws -> AuthUser {
        try context.requireRole([.admin], code: "admin_required", detail: "Only admins moderate.")
    }

    @Sendable func queue(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<ModerationItem>
    > {
        _ = try requireAdmin(context)
        let status = try QueryParameters(request).choice("status", orElse: ModerationError.invalidStatus) ?? Status.open
        return JSONResponse(try await moderation.queue(open: status == .open, page: try PageRequest(request)))
    }

    enum Status: String {
        case open, closed
    }

    struct ActionBody: Decodable {
        var action: String?
        var note: String?
    }

    @Sendable func act(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        ModerationItem
    > {
        let admin = try requireAdmin(context)
        var request = request
        let body = try await request.decodeJSON(ActionBody.self)
        guard let action = body.action.flatMap(ModerationAction.init(rawValue:)) else {
            throw ModerationError.invalidAction
        }
        let item = try await moderation.act(
            action, commentID: try context.parameters.require("id"), adminID: admin.id,
            note: try Moderation.validNote(body.note))
        return JSONResponse(item)
    }

    @Sendable func log(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<ModerationLogEntry>
    > {
        _ = try requireAdmin(context)
        return JSONResponse(try await moderation.log(page: try PageRequest(request)))
    }
}
