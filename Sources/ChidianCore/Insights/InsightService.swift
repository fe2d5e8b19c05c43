import Foundation

/// Who may see which figures: a store's insights (its manager, admins) and the platform's (admins).
package struct InsightService: Sendable {
    package let insights: InsightRepository
    package let clock: @Sendable () -> Date

    package init(insights: InsightRepository, clock: @escaping @Sendable () -> Date = Date.init) {
        self.insights = insights
        self.clock = clock
    }

    /// The store's facts once the viewer is known to be its manager or an admin (else 403 `not_store_owner`).
    package func permitted(_ user: AuthUser, storeID: String) async throws -> InsightRepository.StoreFacts {
        let facts = try await insights.facts(storeID: storeID)
        guard user.role == .admin || user.id == facts.managerID else {
            throw StoreError.notOwner("Only the store's manager or an admin sees its insights.")
        }
        return facts
    }

    /// The platform's figures over `range` (the caller has checked the viewer is an admin).
    package func platform(_ range: InsightRange) async throws -> PlatformStats {
        try await insights.platform(range)
    }
}
