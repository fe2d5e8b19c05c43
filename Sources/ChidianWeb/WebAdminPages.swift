import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// 管理后台: the moderation queue (hide, restore, dismiss, each logged with the admin), archiving and restoring
/// stores, and categories; plus reporting a comment, for any signed-in user. The same rules as the API's
/// moderation routes and the CLI's store and category commands.
struct WebAdminPages {
    let pages: WebPages
    let moderation: Moderation
    let admin: StoreAdmin
    let insights: InsightService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("admin", use: page)
        group.post("admin/comments/:id", use: act)
        group.post("admin/comments/:id/recommended", use: judge)
        group.post("admin/stores/:id/archive", use: archive)
        group.post("admin/stores/:id/restore", use: restore)
        group.post("admin/categories", use: addCategory)
        group.post("admin/categories/:id", use: renameCategory)
        group.post("comments/:id/report", use: report)
    }

    static func requireAdmin(_ context: AppRequestContext) throws -> AuthUser {
        try context.requireRole([.admin], code: "admin_required", detail: "Only admins moderate.")
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try Self.requireAdmin(context)
        let open = request.uri.queryParameters["status"] != "closed"
        return try await render(
            context: context, open: open, saved: request.uri.queryParameters["saved"].map(String.init),
            days: InsightCharts.period(request.uri.queryParameters["days"]))
    }

    /// The platform's last `days` days, as `GET /v1/admin/stats` gives them.
    func platform(days: Int, language: Language) async throws -> TemplateFields {
        let range = try InsightRange(
            from: nil, to: nil, timeZone: TimeZone(identifier: PlatformStats.timeZone)!, now: Date(), span: days)
        let stats = try await insights.platform(range)
        return [
            "heading": language.text("platformDay"),
            "periods": InsightCharts.periodLinks(path: "/admin", current: days, language: language),
            "totals": InsightCharts.platformTotals(stats.totals, language: language),
            "charts": InsightCharts.platform(stats, language: language),
        ]
    }

    func render(
        context: AppRequestContext, open: Bool = true, saved: String? = nil, failed: Problem? = nil, days: Int = 30
    ) async throws -> Response {
        let language = context.web?.language ?? .zh
        let queue = try await moderation.queue(open: open, page: PageRequest(limit: 50))
        let model: TemplateFields = [
            "insights": try await platform(days: days, language: language),
            "items": queue.items.map { item in
                [
                    "card": CommentCardModel(item.comment, viewer: context.viewer, language: language),
                    "id": item.comment.id, "reportCount": item.reportCount, "hidden": item.hidden,
                    "reasons": item.reports.map { report in
                        language.text("reason." + report.reason) + (report.note.map { "：\($0)" } ?? "")
                    },
                ] as TemplateFields
            },
            "hasItems": !queue.items.isEmpty,
            "trust": try await trustQueue(context: context, language: language),
            "open": open,
            "archived": try await admin.archivedStores(limit: 50).map { ["id": $0.id, "name": $0.name] },
            "categories": try await admin.listCategories().map {
                ["id": $0.id, "name": $0.name, "storeCount": $0.storeCount] as TemplateFields
            },
            "saved": saved != nil,
            "error": failed.map { language.strings["error.\($0.code)"] ?? $0.detail },
        ]
        return pages.render(
            "admin", title: language.text("admin"), model: model, context: context,
            status: failed?.status ?? .ok)
    }

    /// Reviews the judge found suspicious or that are not recommended, most suspicious first, with what was seen.
    func trustQueue(context: AppRequestContext, language: Language) async throws -> [TemplateFields] {
        try await moderation.trustQueue(page: PageRequest(limit: 20)).items.map { item in
            [
                "card": CommentCardModel(item.comment, viewer: context.viewer, language: language),
                "id": item.comment.id, "recommended": item.comment.recommended,
                "score": String(format: "%.1f", item.score),
                // The judge's sentence after the signal's name in the page's language.
                "signals": item.signals.map { "\(language.strings["signal.\($0.kind)"] ?? $0.kind)（\($0.detail)）" },
            ] as TemplateFields
        }
    }

    /// An admin's verdict, as `PUT /v1/comments/{id}/recommended`: it stands against the judge and is logged.
    @Sendable func judge(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let admin = try Self.requireAdmin(context)
        let id = try context.parameters.require("id")
        let note = form["note"].flatMap { $0.isEmpty ? nil : $0 }
        _ = try await moderation.setRecommended(
            form["recommended"].flatMap(Bool.init), commentID: id, adminID: admin.id,
            note: try Moderation.validNote(note))
        // Back to the review's page when judged there, else to the queue.
        if form["back"] == "comment" {
            return WebPages.redirect(to: "/comments/\(WebController.escapePath(id))?judged=1")
        }
        return WebPages.redirect(to: "/admin?saved=1#trust")
    }

    /// Runs an admin's change; a refusal by the rules shows the page again with the message.
    func attempt(_ context: AppRequestContext, _ change: () async throws -> Void) async throws -> Response {
        do {
            try await change()
            return WebPages.redirect(to: "/admin?saved=1")
        } catch {
            guard let problem = WebPages.refusal(error) else { throw error }
            return try await render(context: context, failed: problem)
        }
    }

    @Sendable func act(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let admin = try Self.requireAdmin(context)
        let id = try context.parameters.require("id")
        return try await attempt(context) {
            guard let action = form["action"].flatMap(ModerationAction.init(rawValue:)) else {
                throw ModerationError.invalidAction
            }
            let note = form["note"].flatMap { $0.isEmpty ? nil : $0 }
            _ = try await moderation.act(action, commentID: id, adminID: admin.id, note: try Moderation.validNote(note))
        }
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        _ = try Self.requireAdmin(context)
        let id = try context.parameters.require("id")
        return try await attempt(context) { try await admin.archiveStore(id: id) }
    }

    @Sendable func restore(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try await WebForm.read(request, context: context)
        _ = try Self.requireAdmin(context)
        let id = try context.parameters.require("id")
        return try await attempt(context) { try await admin.restoreStore(id: id) }
    }

    @Sendable func addCategory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        _ = try Self.requireAdmin(context)
        return try await attempt(context) { _ = try await admin.addCategory(name: form["name"] ?? "") }
    }

    @Sendable func renameCategory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        _ = try Self.requireAdmin(context)
        let id = try context.parameters.require("id")
        return try await attempt(context) { _ = try await admin.renameCategory(id: id, to: form["name"] ?? "") }
    }

    /// 举报: any signed-in user, by the API's rules (a reason from the list, not one's own, once while open).
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let note = form["note"].flatMap { $0.isEmpty ? nil : $0 }
        _ = try await moderation.report(
            commentID: id, reporterID: user.id, reason: form["reason"] ?? "", note: try Moderation.validNote(note))
        return WebPages.redirect(to: "/comments/\(WebController.escapePath(id))?reported=1")
    }
}
