import Foundation

/// A page of comments kept as its JSON only (a third of what the values take besides), with what a signed-in
/// viewer's copy needs: the comment ids in order, to mark the ones they liked. Kept in the cache, the JSON is
/// deflated (12.6 kB to 2.6 kB for twenty reviews): the reviews pages of a Zipf over 17,000 stores did not fit at
/// full size, and inflating one costs a fraction of the statement and the writing a miss costs.
package struct RenderedComments: Sendable {
    package let ids: [String]
    let authorIDs: Set<String>
    /// The page as everyone sees it: every `liked` false.
    package let body: PagePart
    package let etag: String

    package init(_ page: Page<CommentView>, deflate: Bool) throws {
        ids = page.items.map(\.id)
        authorIDs = Set(page.items.map(\.author.id))
        let written = try JSONWriter.bytes(of: page)
        etag = ContentTag.of(written)
        // Exactly its size when plain: the writer's array grew by doubling.
        body =
            deflate
            ? .deflated(try DeflatedBytes(deflating: written))
            : .plain(written.withUnsafeBufferPointer { Array($0) })
    }

    /// The page as everyone sees it.
    package func json() throws -> [UInt8] { try body.bytes() }

    var cost: Int { body.heldBytes + 48 * ids.count }

    static let likedFalse = Array(#""liked":false"#.utf8)

    /// The page as a viewer who liked `liked` sees it: each comment's `"liked":false` (the only place the bytes
    /// `"liked":` occur unescaped, one per comment, in order) turned `true` where due — the bytes the JSON writer
    /// gives for the marked page.
    package func marking(_ liked: Set<String>) throws -> [UInt8] {
        let json = try json()
        guard !liked.isEmpty else { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var index = 0
        var next = 0
        let pattern = Self.likedFalse
        while index < json.count {
            if next < ids.count, json[index] == pattern[0], json.count - index >= pattern.count,
                json[index..<index + pattern.count].elementsEqual(pattern)
            {
                out.append(contentsOf: liked.contains(ids[next]) ? Array(#""liked":true"#.utf8) : pattern)
                index += pattern.count
                next += 1
            } else {
                out.append(json[index])
                index += 1
            }
        }
        return out
    }
}

extension CommentRepository {
    /// A page of a store's comments as everyone sees it, cached under the store's `c:` tag and its authors' `a:`
    /// tags; 404 `store_not_found` for an empty page of a store that is not live.
    package func storePage(
        storeID: String, kind: CommentKind?, sort: CommentSort, page: PageRequest, recommended: Bool = true
    ) async throws -> RenderedComments {
        let load = { @Sendable (deflate: Bool) in
            let found = try await storeComments(
                storeID: storeID, kind: kind, sort: sort, page: page, recommended: recommended)
            // Listed comments prove the store is live (the list joins it); only an empty page asks whether it exists.
            if found.items.isEmpty, try await liveStoreManager(storeID: storeID) == nil {
                throw StoreError.notFound(id: storeID)
            }
            return try RenderedComments(found, deflate: deflate)
        }
        guard let cache, PlausibleID.check(storeID) else { return try await load(false) }
        let shelf = recommended ? "" : ":not-recommended"
        let key = "c:\(storeID):\(kind?.rawValue ?? "all"):\(sort.rawValue)\(shelf):\(page.limit):\(page.cacheKey)"
        return try await cache.entry(
            key, tags: { ["c:" + storeID] + $0.authorIDs.map { "a:" + $0 } },
            cost: \.cost, load: { try await load(true) }
        ).value
    }
}

extension CommentRepository {
    /// A page of a store's comments as values, for the web store page (which writes them as HTML, not JSON): read
    /// through the cache as `storePage` is, under the same tags, so the page costs what its JSON does.
    package func storeCommentViews(
        storeID: String, kind: CommentKind?, sort: CommentSort, page: PageRequest, recommended: Bool = true
    ) async throws -> Page<CommentView> {
        let load = { @Sendable in
            try await storeComments(storeID: storeID, kind: kind, sort: sort, page: page, recommended: recommended)
        }
        guard let cache, PlausibleID.check(storeID) else { return try await load() }
        let shelf = recommended ? "" : ":not-recommended"
        let key = "cv:\(storeID):\(kind?.rawValue ?? "all"):\(sort.rawValue)\(shelf):\(page.limit):\(page.cacheKey)"
        // A value's own memory is about twice its JSON (`ReadCache.entry`); the JSON is written once, per fill.
        return try await cache.entry(
            key, tags: { ["c:" + storeID] + Set($0.items.map(\.author.id)).map { "a:" + $0 } },
            cost: { 2 * ((try? JSONWriter.bytes(of: $0).count) ?? 4096) }, load: load
        ).value
    }
}
