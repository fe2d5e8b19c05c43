import Foundation

extension CommentRepository {
    /// A page of a store's comments as everyone sees it (`liked` false), cached under the store's `c:` tag and
    /// its authors' `a:` tags; 404 `store_not_found` for an empty page of a store that is not live.
    func storePageEntry(storeID: String, kind: CommentKind?, sort: CommentSort, page: PageRequest) async throws
        -> ReadCache.Entry<Page<CommentView>>
    {
        let load = { @Sendable in
            let found = try await storeComments(storeID: storeID, kind: kind, sort: sort, page: page)
            // Listed comments prove the store is live (the list joins it); only an empty page asks whether it exists.
            if found.items.isEmpty, try await liveStoreManager(storeID: storeID) == nil {
                throw StoreError.notFound(id: storeID)
            }
            return found
        }
        let render: @Sendable (Page<CommentView>) throws -> [UInt8] = { try JSONWriter.bytes(of: $0) }
        guard let cache, PlausibleID.check(storeID) else {
            let found = try await load()
            return try ReadCache.Entry(value: found, rendered: render(found))
        }
        let key = "c:\(storeID):\(kind?.rawValue ?? "all"):\(sort.rawValue):\(page.limit):\(page.cursor?.token ?? "")"
        return try await cache.entry(
            key, tags: { ["c:" + storeID] + Set($0.items.map { "a:" + $0.author.id }) }, render: render, load: load)
    }
}
