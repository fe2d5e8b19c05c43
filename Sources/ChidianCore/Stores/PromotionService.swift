/// Promotion's rules: a store's manager buys ad spend; the daily promotions show the biggest spenders.
package struct PromotionService: Sendable {
    package let stores: StoreRepository
    package let promotions: PromotionRepository
    /// Impressions of 每日促销's cards.
    package let insights: InsightCounter?

    package init(stores: StoreRepository, promotions: PromotionRepository, insights: InsightCounter? = nil) {
        self.stores = stores
        self.promotions = promotions
        self.insights = insights
    }

    /// Buying promotion's rules: the store's own manager, an amount from 1 to 1,000,000.
    package func buy(_ user: AuthUser, storeID: String, amount raw: JSONValue?, checked: Bool = false) async throws
        -> PromotionView
    {
        if !checked {
            try StorePermissions.requireManager(user, managerID: try await stores.requireManagerID(of: storeID))
        }
        let amount = try StoreRules.validAmount(raw)
        return try await promotions.purchase(storeID: storeID, buyerID: user.id, amount: amount)
    }
}
