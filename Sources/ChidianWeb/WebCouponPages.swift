import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// 领券 in the browser: a store's live coupons with 领取, 我的券 with the codes large enough to show a waiter, and on
/// the manager's store page the offer form, the coupons offered and the field a code is redeemed in. The same
/// rules as the API's (`CouponService`).
struct WebCouponPages {
    let pages: WebPages
    let coupons: CouponService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("coupons/:id/claim", use: claim)
        group.get("me/coupons", use: mine)
        group.post("manage/stores/:id/coupons", use: offer)
        group.post("manage/coupons/:id/end", use: end)
        group.post("manage/stores/:id/redemptions", use: redeem)
    }

    /// The store page's section: coupons live or upcoming, each with 领取 (or a sign-in link); nothing when the
    /// store has none (its card knows without a query).
    func section(_ store: StoreCard, context: AppRequestContext, error: String?) async throws -> [UInt8] {
        guard !store.couponWindows.isEmpty else { return [] }
        let language = context.web?.language ?? .zh
        let now = Date()
        let items = try await coupons.list(storeID: store.id, viewer: context.viewer.user).items
            .filter { [.live, .upcoming].contains($0.state(at: now)) }
        guard !items.isEmpty else { return [] }
        let model: TemplateFields = [
            "coupons": items.map { Self.model($0, language: language, now: now, zone: store.timeZone) },
            "storeId": store.id, "signedIn": context.viewer.user != nil,
            "loginHref": "/login?next=\(WebController.escapeQuery("/stores/\(store.id)"))",
            "error": error.map { language.strings["error.\($0)"] ?? $0 },
        ]
        return pages.render(
            "storeCoupons", model: model, language: language, csrf: context.web?.csrfToken ?? "",
            viewer: context.viewer.user)
    }

    /// `zone`: the store's, so the times read as the offer form took them.
    static func model(_ coupon: CouponView, language: Language, now: Date, zone: String) -> TemplateFields {
        let state = coupon.state(at: now)
        return [
            "id": coupon.id, "title": coupon.title, "faceValue": coupon.faceValue,
            "minSpend": coupon.minSpend > 0 ? language.text("couponMinSpend") + " ¥\(coupon.minSpend)" : "",
            "remaining": coupon.remaining, "stock": coupon.stock, "claimedByMe": coupon.claimedByMe,
            "state": language.text("couponState." + state.rawValue), "live": state == .live,
            "until": Self.date(coupon.endsAt, zone: zone), "from": Self.date(coupon.startsAt, zone: zone),
            // A fresh key per page: a double click or a resent form claims once.
            "key": Tokens.generate(),
        ]
    }

    static func date(_ date: Date, zone: String = StoreTimeZone.defaultName) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = StoreTimeZone.zone(zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    @Sendable func claim(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let store = WebController.escapePath(form["store"] ?? "")
        do {
            let key = try CouponRules.idempotencyKey(form["key"].flatMap { $0.isEmpty ? nil : $0 })
            let made = try await coupons.claim(id: id, user: user, key: key)
            return WebPages.redirect(to: "/me/coupons?claimed=\(WebController.escapeQuery(made.claim.id))")
        } catch let error as CouponError {
            return WebPages.redirect(to: "/stores/\(store)?coupon=\(error.code)#coupons")
        }
    }

    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let language = context.web?.language ?? .zh
        let claimed = request.uri.queryParameters["claimed"].map(String.init)
        let page = try await coupons.claims(user: user, state: nil, page: PageRequest(request))
        let now = Date()
        let model: TemplateFields = [
            "claims": page.items.map { claim in
                let state =
                    claim.redeemedAt != nil ? "redeemed" : claim.expiresAt <= now ? "expired" : "usable"
                return [
                    "code": claim.code, "title": claim.coupon.title, "faceValue": claim.coupon.faceValue,
                    "store": claim.coupon.storeId, "expires": Self.date(claim.expiresAt),
                    "state": language.text("claimState." + state), "usable": state == "usable",
                    "fresh": claim.id == claimed,
                ] as TemplateFields
            },
            "hasClaims": !page.items.isEmpty,
            "next": page.nextCursor.map { "/me/coupons?cursor=\(WebController.escapeQuery($0))" },
        ]
        return pages.render("myCoupons", title: language.text("myCoupons"), model: model, context: context)
    }

    /// The manager's store page: its coupons, the offer form and the redemption field.
    func managerSection(storeID: String, zone: String, language: Language) async throws -> TemplateFields {
        let now = Date()
        let items = try await coupons.list(storeID: storeID, viewer: nil).items
        return [
            "coupons": items.map { Self.model($0, language: language, now: now, zone: zone) },
            "hasCoupons": !items.isEmpty,
            "defaultEnds": Self.localInput(now.addingTimeInterval(7 * 86400)),
        ]
    }

    /// `datetime-local` values are the store's wall clock (Asia/Shanghai for the form's default).
    static func localInput(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = StoreTimeZone.zone(StoreTimeZone.defaultName)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    /// A `datetime-local` value in `zone` as RFC 3339; nil when empty, the text itself when it is no time (the
    /// rules then name the field).
    static func time(_ raw: String?, zone: String) -> String? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = StoreTimeZone.zone(zone)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        guard let date = formatter.date(from: raw) else { return raw }
        return ISO8601DateFormatter().string(from: date)
    }

    static func number(_ raw: String?) -> JSONValue? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return Int(raw).map(JSONValue.integer) ?? .string(raw)
    }

    @Sendable func offer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let zone = try await coupons.stores.requireView(id: id, viewer: user).timeZone
        let draft = CouponDraft(
            title: form["title"], faceValue: Self.number(form["faceValue"]) ?? .null,
            minSpend: Self.number(form["minSpend"]), stock: Self.number(form["stock"]) ?? .null,
            perUser: Self.number(form["perUser"]), startsAt: Self.time(form["startsAt"], zone: zone),
            endsAt: Self.time(form["endsAt"], zone: zone), validDays: Self.number(form["validDays"]))
        let path = "/manage/stores/\(WebController.escapePath(id))"
        do {
            _ = try await coupons.offer(user, storeID: id, draft: draft)
            return WebPages.redirect(to: "\(path)?saved=coupon#coupons")
        } catch let error as CouponError {
            return WebPages.redirect(to: "\(path)?coupon=\(error.code)#coupons")
        }
    }

    @Sendable func end(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        try await coupons.end(id: try context.parameters.require("id"), user: user)
        let store = WebController.escapePath(form["store"] ?? "")
        return WebPages.redirect(to: "/manage/stores/\(store)?saved=couponEnded#coupons")
    }

    @Sendable func redeem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let path = "/manage/stores/\(WebController.escapePath(id))"
        do {
            let claim = try await coupons.redeem(
                storeID: id, user: user, code: form["code"] ?? "", address: context.clientAddress)
            return WebPages.redirect(to: "\(path)?redeemed=\(WebController.escapeQuery(claim.code))#redeem")
        } catch let error as CouponError {
            return WebPages.redirect(to: "\(path)?redeem=\(error.code)#redeem")
        } catch let problem as Problem where problem.code == "claim_expired" {
            return WebPages.redirect(to: "\(path)?redeem=claim_expired#redeem")
        }
    }
}
