/// 商家 functions: opening and changing stores, answering reviews, buying promotion.
extension ChidianClient {
    /// Opens a store (managers), optionally with its place on the map, its weekly hours and its zone (an IANA
    /// name; `Asia/Shanghai` when nil).
    public func openStore(
        name: String, categoryId: String, description: String? = nil, address: String? = nil,
        imageIds: [String] = [], location: Store.Location? = nil, hours: [Store.Hours]? = nil,
        timeZone: String? = nil
    ) async throws -> Store {
        let output = try await api.createStore(
            body: .json(
                .init(
                    address: address, categoryId: categoryId, description: description,
                    hours: hours?.map { .init(close: $0.close, day: $0.day, open: $0.open) },
                    imageIds: imageIds.isEmpty ? nil : imageIds,
                    location: location.map { .init(lat: $0.lat, lng: $0.lng) }, name: name, timeZone: timeZone)))
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        return try mirror(created.body.json)
    }

    /// Changes a store as it was read (`If-Match` with `store.version`); nil fields stay unchanged (clearing
    /// `location` or `hours` takes a JSON null, which the generated request types cannot send).
    public func update(
        _ store: Store, name: String? = nil, description: String? = nil, address: String? = nil,
        imageIds: [String]? = nil, categoryId: String? = nil, location: Store.Location? = nil,
        hours: [Store.Hours]? = nil, timeZone: String? = nil
    ) async throws -> Store {
        let output = try await api.updateStore(
            path: .init(id: store.id), headers: .init(ifMatch: ifMatch(store.version)),
            body: .json(
                .init(
                    address: address, categoryId: categoryId, description: description,
                    hours: hours?.map { .init(close: $0.close, day: $0.day, open: $0.open) }, imageIds: imageIds,
                    location: location.map { .init(lat: $0.lat, lng: $0.lng) }, name: name, timeZone: timeZone)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// Archives a store as it was read (its manager or an admin; `If-Match`, as `update`): it leaves every list and
    /// answers 404 `.storeNotFound`; its data is kept (`chidian store restore ID` brings it back).
    public func archive(_ store: Store) async throws {
        let output = try await api.archiveStore(
            path: .init(id: store.id), headers: .init(ifMatch: ifMatch(store.version)))
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }

    /// A store's promotion purchases (its manager or an admin).
    public func promotions(ofStore id: String, pageSize: Int = 20) -> Paginated<Promotion> {
        Paginated { cursor in
            let output = try await self.api.listPromotions(
                path: .init(id: id), query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
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

    /// Takes the store's answer to a review back.
    public func deleteReply(to id: String) async throws {
        let output = try await api.deleteReply(path: .init(id: id))
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }
}
