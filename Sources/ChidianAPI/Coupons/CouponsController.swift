import ChidianCore
import HTTPTypes
import Hummingbird

/// 领券: a store's manager offers coupons, signed-in users claim them, the manager redeems their codes.
struct CouponsController {
    let service: CouponService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("stores/:id/coupons", use: offer)
        group.get("stores/:id/coupons", use: list)
        group.get("coupons/:id", use: coupon)
        group.delete("coupons/:id", use: end)
        group.post("coupons/:id/claims", use: claim)
        group.get("me/claims", use: claims)
        group.post("stores/:id/redemptions", use: redeem)
    }

    @Sendable func offer(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CouponView> {
        let user = try context.requireUser()
        var request = request
        let draft = try await request.decodeJSON(CouponDraft.self)
        let coupon = try await service.offer(user, storeID: try context.parameters.require("id"), draft: draft)
        return JSONResponse(coupon, status: .created)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CouponList> {
        JSONResponse(try await service.list(storeID: try context.parameters.require("id"), viewer: context.viewer.user))
    }

    @Sendable func coupon(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CouponView> {
        JSONResponse(try await service.coupon(id: try context.parameters.require("id"), viewer: context.viewer.user))
    }

    @Sendable func end(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await service.end(id: try context.parameters.require("id"), user: try context.requireUser())
        return Response(status: .noContent)
    }

    @Sendable func claim(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ClaimView> {
        let user = try context.requireUser()
        let key = try CouponRules.idempotencyKey(request.headers[.idempotencyKey])
        let (claim, replayed) = try await service.claim(
            id: try context.parameters.require("id"), user: user, key: key)
        return JSONResponse(claim, status: replayed ? .ok : .created)
    }

    @Sendable func claims(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<ClaimView>
    > {
        let user = try context.requireUser()
        let state = request.uri.queryParameters["state"].map(String.init)
        return JSONResponse(try await service.claims(user: user, state: state, page: try PageRequest(request)))
    }

    struct RedemptionBody: Decodable {
        var code: String
    }

    @Sendable func redeem(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ClaimView> {
        let user = try context.requireUser()
        let storeID = try context.parameters.require("id")
        var request = request
        let body = try await request.decodeJSON(RedemptionBody.self)
        return JSONResponse(
            try await service.redeem(storeID: storeID, user: user, code: body.code, address: context.clientAddress))
    }
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}
