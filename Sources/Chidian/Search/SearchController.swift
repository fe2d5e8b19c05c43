import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Search" route. Open to everyone; the viewer only decides `favorited` and `adSpend`.
struct SearchController {
    let search: SearchRepository
    /// Impressions of the results' stores.
    let insights: InsightCounter?

    init(
        database: Database, budget: Int, gate: AdmissionGate, caching: Caching? = nil,
        insights: InsightCounter? = nil
    ) {
        self.insights = insights
        search = SearchRepository(database: database, budget: budget, gate: gate, caching: caching)
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("search", use: find)
    }

    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let query = try SearchQuery(Self.formValue("q", in: request.uri.query))
        let viewer = context.viewer.user
        let pageRequest = try PageRequest(request)
        let parameters = request.uri.queryParameters
        let near = try NearQuery.parse(
            near: parameters["near"].map(String.init), radius: parameters["radius"].map(String.init))
        if let near {
            let page = try await search.search(query, page: pageRequest, viewer: viewer, near: near)
            insights?.shown(page.items.map(\.store.id), as: .search)
            return try CacheableJSON(rendering: page, shared: viewer == nil)
        }
        if viewer == nil, let shared = try await search.sharedPage(query, page: pageRequest) {
            insights?.shown(shared.items.map(\.store.value.id), as: .search)
            let (json, etag) = try shared.rendered()
            return CacheableJSON(body: ByteBuffer(bytes: json), etag: etag, shared: true)
        }
        let page = try await search.search(query, page: pageRequest, viewer: viewer)
        insights?.shown(page.items.map(\.store.id), as: .search)
        return try CacheableJSON(rendering: page, shared: viewer == nil)
    }

    /// The first `name` parameter of a query string decoded as a form does it: `+` is a space and `%2B` a plus
    /// sign, so `?q=huo+guo` from a browser form or URLSearchParams means "huo guo". A malformed escape is kept
    /// as written.
    static func formValue(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if decode(parts[0]) == name { return parts.count > 1 ? decode(parts[1]) : "" }
        }
        return nil
    }
}
