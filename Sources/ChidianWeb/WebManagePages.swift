import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// 商家: a manager's stores with their ad spend, opening and editing a store (with photos), buying promotion and
/// replying to reviews, by the same rules as the API's store, promotion and reply routes.
struct WebManagePages {
    let pages: WebPages
    let storeService: StoreService
    let promotions: PromotionService
    let categories: CategoryRepository
    let comments: CommentService
    let images: ImageService
    let insightService: InsightService
    let coupons: WebCouponPages

    var stores: StoreRepository { storeService.stores }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("manage", use: manage)
        group.post("manage/stores", use: open)
        group.get("manage/stores/:id", use: editPage)
        group.post("manage/stores/:id", use: edit)
        group.post("manage/stores/:id/promotions", use: promote)
        group.get("manage/stores/:id/insights.csv", use: insightsCSV)
        group.post("comments/:id/reply", use: reply)
    }

    static func manager(_ context: AppRequestContext) throws -> AuthUser {
        try StorePermissions.requireManagerRole(context)
    }

    @Sendable func manage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await managePage(context: context, saved: request.uri.queryParameters["saved"].map(String.init))
    }

    func managePage(context: AppRequestContext, saved: String? = nil, failed: (String, Problem)? = nil)
        async throws -> Response
    {
        let user = try Self.manager(context)
        let language = context.web?.language ?? .zh
        let mine = try await stores.managed(by: user.id, page: PageRequest(limit: 100), viewer: user)
        var model: TemplateFields = [
            "stores": mine.items.map { store in
                [
                    "card": StoreCardModel(store, language: language), "id": store.id,
                    "adSpend": store.adSpend ?? 0, "saved": saved == "promotion-\(store.id)",
                    "error": failed.flatMap { $0.0 == "promotion-\(store.id)" ? Self.message($0.1, language) : nil },
                ] as TemplateFields
            },
            "hasStores": !mine.items.isEmpty,
            "categories": try await categories.list().map { ["id": $0.id, "name": $0.name] },
        ]
        var status = HTTPResponse.Status.ok
        if let (form, problem) = failed {
            if form == "open" { model["error_open"] = Self.message(problem, language) }
            status = problem.status
        }
        if saved == "open" { model["saved_open"] = true }
        return pages.render("manage", title: language.text("manage"), model: model, context: context, status: status)
    }

    static func message(_ problem: Problem, _ language: Language) -> String {
        language.strings["error.\(problem.code)"] ?? problem.detail
    }

    /// Runs a change; a refusal by the rules comes back as the page with the message beside its form.
    func attempt(
        _ form: String, render: (String, Problem) async throws -> Response, _ change: () async throws -> Response
    )
        async throws -> Response
    {
        do {
            return try await change()
        } catch {
            guard let problem = WebPages.refusal(error) else { throw error }
            return try await render(form, problem)
        }
    }

    @Sendable func open(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context, maxBytes: WebForm.maxUploadBytes)
        let user = try Self.manager(context)
        return try await attempt("open", render: { try await managePage(context: context, failed: ($0, $1)) }) {
            guard form.photos.count <= StoreRules.maxImages else {
                throw StoreError.invalidImages("A store holds at most \(StoreRules.maxImages) images.")
            }
            // The text first, so a refused store stores no photos.
            var body = StoreService.StoreBody(
                name: form["name"], categoryId: form["categoryId"], description: form["description"],
                address: form["address"], imageIds: [])
            _ = try StoreRules.validName(body.name)
            for photo in form.photos { body.imageIds?.append(try await images.store(photo, user: user).id) }
            let view = try await storeService.open(user, body: body)
            return WebPages.redirect(to: "/manage/stores/\(WebController.escapePath(view.id))?saved=open")
        }
    }

    @Sendable func promote(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try Self.manager(context)
        let id = try context.parameters.require("id")
        let key = "promotion-\(id)"
        return try await attempt(key, render: { try await managePage(context: context, failed: ($0, $1)) }) {
            let raw = form["amount"]?.trimmingCharacters(in: .whitespaces) ?? ""
            _ = try await promotions.buy(user, storeID: id, amount: Int(raw).map(JSONValue.integer) ?? .string(raw))
            return WebPages.redirect(to: "/manage?saved=\(key)")
        }
    }

    @Sendable func editPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await storePage(
            id: try context.parameters.require("id"), context: context,
            saved: request.uri.queryParameters["saved"].map(String.init),
            days: InsightCharts.period(request.uri.queryParameters["days"]),
            notes: ["coupon", "redeem", "redeemed"].reduce(into: [String: String]()) { notes, name in
                notes[name] = request.uri.queryParameters[Substring(name)].map(String.init)
            })
    }

    /// The last `days` days of the store's insights in its time zone, for its manager or an admin.
    func insights(_ user: AuthUser, id: String, days: Int) async throws -> StoreInsights {
        let facts = try await insightService.permitted(user, storeID: id)
        let range = try InsightRange(from: nil, to: nil, timeZone: facts.zone, now: insightService.clock(), span: days)
        return try await insightService.insights.store(id, facts: facts, range: range)
    }

    /// The same figures as the page's charts, as the API's CSV.
    @Sendable func insightsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let days = InsightCharts.period(request.uri.queryParameters["days"])
        return try await insights(context.requireUser(), id: try context.parameters.require("id"), days: days)
            .download
    }

    func storePage(
        id: String, context: AppRequestContext, saved: String? = nil, failed: (String, Problem)? = nil, days: Int = 30,
        notes: [String: String] = [:]
    ) async throws -> Response {
        let user = try context.requireUser()
        let language = context.web?.language ?? .zh
        let view = try await stores.requireView(id: id, viewer: user)
        try StorePermissions.requireEditor(user, managerID: view.managerId)
        let reviews = try await comments.comments.storeComments(
            storeID: id, kind: .review, sort: .newest, page: PageRequest(limit: 20))
        let path = "/manage/stores/\(WebController.escapePath(id))"
        var model: TemplateFields = [
            "store": [
                "id": view.id, "name": view.name, "description": view.description, "address": view.address,
                "version": view.version, "images": view.imageUrls,
                "location": view.location.map { "\($0.lat),\($0.lng)" } ?? "",
                "hours": view.hours.map { HoursText.format($0, english: language == .en) } ?? "",
                "timeZone": view.timeZone,
            ] as TemplateFields,
            "categories": try await categories.list().map {
                ["id": $0.id, "name": $0.name, "selected": $0.id == view.category.id] as TemplateFields
            },
            "reviews": reviews.items.map { review in
                [
                    "card": CommentCardModel(review, viewer: context.viewer, language: language),
                    "id": review.id, "replyText": review.reply?.body ?? "", "back": path,
                    "error": failed.flatMap { $0.0 == "reply-\(review.id)" ? Self.message($0.1, language) : nil },
                ] as TemplateFields
            },
            "hasReviews": !reviews.items.isEmpty,
        ]
        var couponSection = try await coupons.managerSection(storeID: id, zone: view.timeZone, language: language)
        couponSection["storeId"] = id
        let query = notes
        if let code = query["coupon"] { couponSection["error"] = language.strings["error.\(code)"] ?? code }
        if let code = query["redeem"] { couponSection["redeemError"] = language.strings["error.\(code)"] ?? code }
        if let code = query["redeemed"] { couponSection["redeemed"] = code }
        model["couponSection"] = couponSection
        let figures = try await insights(user, id: id, days: days)
        model["insights"] =
            [
                "heading": language.text("insights"),
                "rankLine": InsightCharts.rankLine(figures.promotion, language: language),
                "periods": InsightCharts.periodLinks(path: path, current: days, language: language),
                "csv": "\(path)/insights.csv?days=\(days)",
                "totals": InsightCharts.storeTotals(figures.totals, language: language),
                "charts": InsightCharts.store(figures, language: language),
            ] as TemplateFields
        if let saved { model["saved_\(saved)"] = true }
        var status = HTTPResponse.Status.ok
        if let (form, problem) = failed {
            if form == "edit" { model["error_edit"] = Self.message(problem, language) }
            status = problem.status
        }
        return pages.render("manageStore", title: view.name, model: model, context: context, status: status)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context, maxBytes: WebForm.maxUploadBytes)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await stores.requireManagerID(of: id))
        return try await attempt("edit", render: { try await storePage(id: id, context: context, failed: ($0, $1)) }) {
            var body = StoreService.StoreBody(
                name: form["name"], categoryId: form["categoryId"], description: form["description"],
                address: form["address"], imageIds: nil)
            body.location = try Self.location(form["location"])
            body.hours = try Self.hours(form["hours"])
            body.timeZone = form["timeZone"].map { name in
                let name = name.trimmingCharacters(in: .whitespaces)
                return name.isEmpty ? .null : .string(name)
            }
            guard let version = form["version"].flatMap({ Int($0) }) else { throw Versioning.versionConflict }
            _ = try StoreRules.validName(body.name)
            if !form.photos.isEmpty {
                guard form.photos.count <= StoreRules.maxImages else {
                    throw StoreError.invalidImages("A store holds at most \(StoreRules.maxImages) images.")
                }
                // New photos replace the old ones, as imageIds does in PATCH.
                var ids: [String] = []
                for photo in form.photos { ids.append(try await images.store(photo, user: user).id) }
                body.imageIds = ids
            }
            _ = try await storeService.edit(user, id: id, body: body, expectedVersion: version)
            return WebPages.redirect(to: "/manage/stores/\(WebController.escapePath(id))?saved=edit")
        }
    }

    /// The form's "lat,lng" as the API's `location` (empty clears it; a field not sent keeps it).
    static func location(_ text: String?) throws -> JSONValue? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "，", with: ",")
        guard !trimmed.isEmpty else { return .null }
        guard let point = try? GeoPoint.near(query: trimmed) else { throw PlaceError.invalidLocation }
        return .object(["lat": .number(point.lat), "lng": .number(point.lng)])
    }

    /// Hours as people write them, as the API's `hours` (empty clears them; a field not sent keeps them).
    static func hours(_ text: String?) throws -> JSONValue? {
        guard let text else { return nil }
        guard let hours = try HoursText.parse(text) else { return .null }
        return .array(
            hours.ranges.map { range in
                .object([
                    "day": .integer(range.day), "open": .string(WeeklyHours.clock(range.open)),
                    "close": .string(WeeklyHours.clock(range.close)),
                ])
            })
    }

    @Sendable func reply(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let back = WebController.localPath(form["back"]) ?? "/comments/\(WebController.escapePath(id))"
        do {
            _ = try await comments.replies.put(
                commentID: id, user: user, body: try CommentReplies.validBody(form["body"]))
            return WebPages.redirect(to: back)
        } catch {
            guard back.hasPrefix("/manage/stores/"), let problem = WebPages.refusal(error) else { throw error }
            let storeID = String(back.dropFirst("/manage/stores/".count).prefix { $0 != "?" })
            return try await storePage(
                id: storeID.removingPercentEncoding ?? storeID, context: context, failed: ("reply-\(id)", problem))
        }
    }
}
