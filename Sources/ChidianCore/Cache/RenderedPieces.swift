/// Pieces of pages a front end renders (the web client's HTML) that look the same to every viewer who sees them,
/// kept in the read cache under the tags of the data they show: a write drops a piece exactly when it drops that
/// data, so a piece is never older than the JSON beside it. Without the cache (`CACHE=off`) every piece renders.
///
/// A piece is kept deflated: HTML shrinks to a fifth, so the cache's cap holds five times the pages (a store page
/// is about 18 kB, and the bench's Zipf over 20,000 stores missed two views in five at full size). A browser takes
/// it as it is kept (`GzipMember`); only a client without gzip has it inflated.
package struct RenderedPieces: Sendable {
    let cache: ReadCache?

    package init(cache: ReadCache?) {
        self.cache = cache
    }

    struct Piece: Sendable {
        let deflated: DeflatedBytes
        let tags: [String]
        /// What the page needs beside the bytes, kept with them under the same tags (the store page's card).
        let extra: any Sendable
    }

    /// The piece under `key`; on a miss `render` gives its bytes and the tags of what it shows. Whatever `render`
    /// reads it must read inside itself (not before), so a write after the miss began drops the new piece too.
    package func piece(
        _ key: String, render: @escaping @Sendable () async throws -> (bytes: [UInt8], tags: [String])
    ) async throws -> PagePart {
        try await piece(key) { () async throws -> (bytes: [UInt8], tags: [String], extra: Bool) in
            let (bytes, tags) = try await render()
            return (bytes, tags, true)
        } extraCost: { _ in
            0
        }.part
    }

    /// The piece under `key` with a value kept beside it: a hit needs nothing else read.
    package func piece<Extra: Sendable>(
        _ key: String, render: @escaping @Sendable () async throws -> (bytes: [UInt8], tags: [String], extra: Extra),
        extraCost: @escaping @Sendable (Extra) -> Int
    ) async throws -> (part: PagePart, extra: Extra) {
        guard let cache else {
            let (bytes, _, extra) = try await render()
            return (.plain(bytes), extra)
        }
        let piece = try await cache.entry(
            "h:" + key, tags: { $0.tags },
            cost: { piece in
                64 + piece.deflated.stream.count + 40 * piece.tags.count + ((piece.extra as? Extra).map(extraCost) ?? 0)
            },
            load: {
                let (bytes, tags, extra) = try await render()
                return Piece(deflated: try DeflatedBytes(deflating: bytes), tags: tags, extra: extra)
            }
        ).value
        guard let extra = piece.extra as? Extra else { throw Mismatch(key: key) }
        return (.deflated(piece.deflated), extra)
    }

    /// Two callers kept different values under one key: a programming error, answered as a server error.
    struct Mismatch: Error {
        let key: String
    }
}
