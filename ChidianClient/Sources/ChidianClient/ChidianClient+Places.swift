/// 今天吃点啥: one store to eat at now, with the reasons, and 换一个 (`skip`).
extension ChidianClient {
    /// A store open now (within `radius` metres of `near`, 3,000 by default; at most `maxPrice` per person; of
    /// `category`; none of `skip`), ranked by the viewer's interests, rating, favorites and distance with a random
    /// element. Nothing qualifies: `ChidianError.code == .nothingToPick` (404).
    public func pick(
        near: Store.Location? = nil, radius: Int? = nil, maxPrice: Int? = nil, category: String? = nil,
        skip: [String] = []
    ) async throws -> Pick {
        let output = try await api.pick(
            query: .init(
                near: near?.query, radius: radius, maxPrice: maxPrice, category: category,
                skip: skip.isEmpty ? nil : skip.joined(separator: ",")))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// How busy the store usually is by weekday and hour (Google's "popular times"); an unknown or archived store
    /// is `ChidianError.code == .storeNotFound` (404).
    public func popularTimes(ofStore id: String) async throws -> PopularTimes {
        let output = try await api.popularTimes(path: .init(id: id))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }
}
