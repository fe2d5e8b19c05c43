import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Recommended or not (issue #48), admins only (else 403 `admin_required`): a review's verdict set by hand and
/// the queue of suspicious reviews.
struct TrustController {
    let moderation: Moderation

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.put("comments/:id/recommended", use: setRecommended)
        group.get("admin/trust", use: queue)
    }

    func requireAdmin(_ context: AppRequestContext) throws -> AuthUser {
        try context.requireRole([.admin], code: "admin_required", detail: "Only admins judge reviews.")
    }

    struct VerdictBody: Decodable {
        var recommended: Bool?
        var note: String?
    }

    @Sendable func setRecommended(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        CommentView
    > {
        let admin = try requireAdmin(context)
        var request = request
        let body = try await request.decodeJSON(VerdictBody.self)
        let view = try await moderation.setRecommended(
            body.recommended, commentID: try context.parameters.require("id"), adminID: admin.id,
            note: try Moderation.validNote(body.note))
        return JSONResponse(view)
    }

    @Sendable func queue(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<TrustItem>
    > {
        _ = try requireAdmin(context)
        return JSONResponse(try await moderation.trustQueue(page: try PageRequest(request)))
    }
}
