import ChidianCore
import HTTPTypes
import Hummingbird

/// Promotion: a store's manager buys ad spend; the home page's daily promotions show the biggest spenders.
struct PromotionsController {
    let service: PromotionService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("stores/:id/promotions", use: buy)
        group.get("stores/:id/promotions", use: list)
        group.get("promotions/daily", use: daily)
    }

    /// `amount` is kept as raw JSON so a string or a fraction is `invalid_amount`, not `invalid_body`;
    /// so is a number no Swift type holds (`1e400`). A body that is not a JSON object stays `invalid_body`.
    struct PurchaseBody: Decodable {
        var amount: JSONValue?

        enum CodingKeys: String, CodingKey { case amount }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            amount = (try? container.decodeIfPresent(JSONValue.self, forKey: .amount)) ?? nil
        }
    }

    @Sendable func buy(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        PromotionView
    > {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireManager(user, managerID: try await service.stores.requireManagerID(of: id))
        var request = request
        let amount = try await request.decodeJSON(PurchaseBody.self).amount
        return JSONResponse(try await service.buy(user, storeID: id, amount: amount, checked: true), status: .created)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<PromotionView>
    > {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await service.stores.requireManagerID(of: id))
        return JSONResponse(try await service.promotions.list(storeID: id, page: try PageRequest(request)))
    }

    /// `?limit=` 1–100, default 10; no cursor: it is a short ranking, not a list to walk.
    @Sendable func daily(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let limit =
            try QueryParameters(request).integer(
                "limit", in: 1...100, emptyIsAbsent: false,
                orElse: Problem.badRequest("invalid_limit", "limit must be an integer from 1 to 100.")) ?? 10
        let entry = try await service.stores.promotedEntry(limit: limit)
        service.insights?.shown(entry.value.map(\.id), as: .daily)
        guard let viewer = context.viewer.user else {
            // A store that opened or closed since the bytes were written is told right only by writing them again.
            guard !entry.placesUnchanged else { return CacheableJSON(body: entry.body, etag: entry.etag, shared: true) }
            return try CacheableJSON(
                rendering: StoreList(items: entry.value.map { $0.personalised(for: nil) }), shared: true)
        }
        let items = try await service.stores.personalised(entry.value, for: viewer)
        return try CacheableJSON(rendering: StoreList(items: items), shared: false)
    }
}
