/// 商家 functions: opening and changing stores, answering reviews, buying promotion.
extension ChidianClient {
    /// Opens a store (managers).
    public func openStore(
        name: String, categoryId: String, description: String? = nil, address: String? = nil,
        imageIds: [String] = []
    ) async throws -> Store {
        let output = try await api.createStore(
            body: .json(
                .init(
                    address: address, categoryId: categoryId, description: description,
                    imageIds: imageIds.isEmpty ? nil : imageIds, name: name)))
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        return try mirror(created.body.json)
    }

    /// Changes a store as it was read (`If-Match` with `store.version`); nil fields stay unchanged.
    public func update(
        _ store: Store, name: String? = nil, description: String? = nil, address: String? = nil,
        imageIds: [String]? = nil
    ) async throws -> Store {
        let output = try await api.updateStore(
            path: .init(id: store.id), headers: .init(ifMatch: ifMatch(store.version)),
            body: .json(.init(address: address, description: description, imageIds: imageIds, name: name)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// The manager's own stores, with `adSpend`.
    public func myStores(pageSize: Int = 20) -> Paginated<Store> {
        Paginated { cursor in
            let output = try await self.api.listMyStores(query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// Buys ad spend for one of the manager's stores; the answer carries the store's new total `adSpend`.
    public func buyPromotion(store id: String, amount: Int) async throws -> Promotion {
        let output = try await api.buyPromotion(path: .init(id: id), body: .json(.init(amount: amount)))
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        return try mirror(created.body.json)
    }

    /// Answers a review of one of the manager's stores (商家回复).
    public func reply(to id: String, body: String) async throws -> Comment {
        let output = try await api.replyToReview(path: .init(id: id), body: .json(.init(body: body)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }
}
