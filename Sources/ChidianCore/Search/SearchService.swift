/// Search as the API and the web give it: the repository's answer, its stores counted as shown.
package struct SearchService: Sendable {
    package let search: SearchRepository
    /// Impressions of the results' stores.
    package let insights: InsightCounter?

    package init(search: SearchRepository, insights: InsightCounter? = nil) {
        self.search = search
        self.insights = insights
    }

    package func search(_ query: SearchQuery, page: PageRequest, viewer: AuthUser?, near: NearQuery? = nil) async throws
        -> SearchPage
    {
        let found = try await search.search(query, page: page, viewer: viewer, near: near)
        insights?.shown(found.items.map(\.store.id), as: .search)
        return found
    }

    /// The anonymous answer shared by every visitor (cached), or nil when there is none to share.
    package func sharedPage(_ query: SearchQuery, page: PageRequest) async throws -> SharedSearchPage? {
        let shared = try await search.sharedPage(query, page: page)
        if let shared { insights?.shown(shared.items.map(\.store.value.id), as: .search) }
        return shared
    }
}
