/// Pieces of pages a front end renders (the web client's HTML) that look the same to every viewer who sees them,
/// kept in the read cache under the tags of the data they show: a write drops a piece exactly when it drops that
/// data, so a piece is never older than the JSON beside it. Without the cache (`CACHE=off`) every piece renders.
package struct RenderedPieces: Sendable {
    let cache: ReadCache?

    package init(cache: ReadCache?) {
        self.cache = cache
    }

    struct Piece: Sendable {
        let bytes: [UInt8]
        let tags: [String]
    }

    /// The piece under `key`; on a miss `render` gives its bytes and the tags of what it shows. Whatever `render`
    /// reads it must read inside itself (not before), so a write after the miss began drops the new piece too.
    package func piece(
        _ key: String, render: @escaping @Sendable () async throws -> (bytes: [UInt8], tags: [String])
    ) async throws -> [UInt8] {
        let load = { @Sendable in
            let (bytes, tags) = try await render()
            return Piece(bytes: bytes, tags: tags)
        }
        guard let cache else { return try await load().bytes }
        return try await cache.entry(
            "h:" + key, tags: { $0.tags }, cost: { 64 + $0.bytes.count + 40 * $0.tags.count }, load: load
        ).value.bytes
    }
}
