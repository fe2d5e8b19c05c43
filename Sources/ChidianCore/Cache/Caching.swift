import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// This server's caches and the listener that keeps them exact; nil in `AppServices` when `CACHE=off`.
public struct Caching: Sendable {
    /// Shared reads: store views, comment pages, daily promotions, categories.
    public let reads: ReadCache
    /// Search pages' hits, apart: a search page brings twenty store views into `reads`, which would push the hits
    /// of ten thousand texts out. Half the cap: ten thousand texts take about 12 MB by `SearchRepository`'s count.
    public let searches: ReadCache
    /// Sessions by token hash.
    public let sessions: ReadCache
    /// Hot images' bytes by id (they never change; a housekeeping delete says `i:<id>`, migration 020). A quarter
    /// of the cap: an eighth of that, the largest image kept, is 960 kB at the default 30 MB (a photo sized for the
    /// web), and 7.5 MB holds a few dozen hot ones without nearing the RSS bound.
    public let images: ReadCache
    /// Near me's cells of stores (`PlaceCells`, tags `g:<cell>`), apart so that store pages do not push them out. Half
    /// the cap: at about 110 bytes a store, 15 MB holds the cells of 130,000 stores.
    public let places: ReadCache
    public let listener: CacheListener

    public init(config: AppConfiguration, database: Database) {
        let share = { (divisor: Int) in max(1 << 20, config.cacheBytes / divisor) }
        // Three times the read cache's cap: at 200,000 stores at noon near me reaches about 33,000 stores (73 MB by
        // their count), and twice the cap held 23,000. A store takes about 0.8 of its count in RSS since its schedule
        // and its own tag are shared (at twice the cap, before, the sum of all caps passed 200 MB).
        let budget = CacheBudget(limit: 3 * config.cacheBytes)
        reads = ReadCache(
            name: "reads", capacityBytes: config.cacheBytes, freshness: config.cacheFreshness, budget: budget)
        // Every cache hears the same listener, so each has the same staleness bound; the others had the default
        // 900 ms, and a test that lengthens it for a loaded machine saw the places cache go quiet under it.
        let freshness = config.cacheFreshness
        searches = ReadCache(
            name: "searches", capacityBytes: share(2), freshness: freshness, holdsSearches: true, budget: budget)
        sessions = ReadCache(
            name: "sessions", capacityBytes: share(16), freshness: freshness, bypassable: false, budget: budget)
        images = ReadCache(name: "images", capacityBytes: share(4), freshness: freshness, budget: budget)
        places = ReadCache(name: "places", capacityBytes: share(2), freshness: freshness, budget: budget)
        budget.borrower = reads
        listener = CacheListener(
            client: database.client, caches: [reads, searches, sessions, images, places], logger: database.logger)
    }
}

extension ReadCache {
    /// The entry under `key`, read by `load` on a miss and kept under the tags of what it shows. Concurrent misses
    /// of one key share one read (a hot page just invalidated is read once, not by every waiting request). Misses
    /// read the primary: a replica may not have replayed a write whose invalidation this server has already applied.
    ///
    /// `render` keeps the anonymous JSON beside the value (a value's own memory is about twice its JSON); without
    /// it, `cost` estimates the value's bytes. `keep` false answers a miss without keeping it: a piece drawn from
    /// the value is kept instead.
    package func entry<Value: Sendable>(
        _ key: String, tags: @escaping @Sendable (Value) -> [String],
        render: (@Sendable (Value) throws -> [UInt8])? = nil, cost: (@Sendable (Value) -> Int)? = nil,
        keep: Bool = true, load: @escaping @Sendable () async throws -> Value
    ) async throws -> Entry<Value> {
        if let hit = get(key, as: Value.self) { return hit }
        guard keep else {
            let value = try await ReadRouting.$floor.withValue(nil) { try await load() }
            return try render.map { try Entry(value: value, rendering: $0) } ?? Entry(value: value, json: [], etag: "")
        }
        let fill = { @Sendable () async throws -> Entry<Value> in
            let ticket = self.ticket()
            let value = try await ReadRouting.$floor.withValue(nil) { try await load() }
            let entry =
                try render.map { try Entry(value: value, rendering: $0) }
                ?? Entry(value: value, json: [], etag: "")
            let bytes = render == nil ? cost?(value) ?? 256 : 2 * entry.json.count
            self.insert(key, entry, tags: tags(value), cost: bytes, since: ticket)
            return entry
        }
        guard isLive, !(bypassable && Self.bypass) else { return try await fill() }
        let flight = flights.withLock { flights -> Task<Entry<Value>, any Error> in
            if let running = flights[key] as? Task<Entry<Value>, any Error> { return running }
            let task = Task {
                defer { _ = self.flights.withLock { $0.removeValue(forKey: key) } }
                return try await fill()
            }
            flights[key] = task
            return task
        }
        return try await flight.value
    }
}

extension ReadCache {
    /// `entry`; but when `busy` says a read would queue, on a miss the page an event dropped (`stale`, its second
    /// value true) while `refill` runs beside the request: under load, a search that misses answers at once instead
    /// of queueing at the gate behind other texts (and a 503 once it waited a second). `refill` should not queue
    /// (a slot free now, or nothing: the next request tries again), so first reads keep the queue. Unloaded, every
    /// miss reads, so a page equals the database after every write as before.
    package func entryOrStale<Value: Sendable>(
        _ key: String, busy: Bool, tags: @escaping @Sendable (Value) -> [String],
        cost: @escaping @Sendable (Value) -> Int, load: @escaping @Sendable () async throws -> Value,
        refill: @escaping @Sendable () async throws -> Value
    ) async throws -> (Entry<Value>, stale: Bool) {
        if busy, get(key, as: Value.self) == nil, let stale = stale(key, as: Value.self) {
            Task { _ = try? await self.entry(key, tags: tags, cost: cost, load: refill) }
            return (stale, true)
        }
        return (try await entry(key, tags: tags, cost: cost, load: load), false)
    }
}

extension ReadCache {
    /// `entry` with its JSON rendered, through `cache` when there is one; with `CACHE=off`, read and rendered
    /// every time.
    package static func rendered<Value: Sendable>(
        in cache: ReadCache?, _ key: String, tags: @escaping @Sendable (Value) -> [String],
        render: @escaping @Sendable (Value) throws -> [UInt8], load: @escaping @Sendable () async throws -> Value
    ) async throws -> Entry<Value> {
        guard let cache else {
            let value = try await load()
            return try Entry(value: value, rendering: render)
        }
        return try await cache.entry(key, tags: tags, render: render, load: load)
    }
}

extension ReadCache.Entry {
    /// `value` with the JSON `render` writes, and the time taken before writing it (a clock read while writing is
    /// then never earlier than `renderedAt`).
    package convenience init(value: Value, rendering render: (Value) throws -> [UInt8]) rethrows {
        let renderedAt = ServerClock.now()
        let rendered = try render(value)
        // A copy of exactly its size: the writer's array grew by doubling.
        let exact = rendered.withUnsafeBufferPointer { Array($0) }
        self.init(value: value, json: exact, etag: ContentTag.of(rendered), renderedAt: renderedAt)
    }
}

/// Strong validators from the bytes of a body: FNV-1a's step over 8 bytes at a time (a search page is hashed on
/// every request; a byte at a time took 20 µs of it), 64 bits, in hex.
package enum ContentTag {
    package static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                hash ^= hash >> 32
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
        }
        hash ^= UInt64(bytes.count)
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks for this header).
    package static func matches(_ request: Request, _ etag: String) -> Bool {
        let values = request.headers[values: .ifNoneMatch]
        guard !values.isEmpty else { return false }
        return ImageService.matches(values.joined(separator: ","), etag: etag)
    }
}

/// A page's JSON with HTTP caching: `ETag`, `If-None-Match` → 304, and `Cache-Control` that lets a shared cache
/// keep a response for a second only when it is the same for every viewer.
package struct CacheableJSON: ResponseGenerator {
    /// The JSON as it is held: a buffer, or a page kept deflated, which a client that takes gzip gets as it is kept
    /// (`GzipMember`) and others inflated.
    enum Body {
        case buffer(ByteBuffer)
        case deflated(DeflatedBytes)
    }

    let body: Body
    package let etag: String
    /// Nobody signed in: the answer is everyone's.
    package let shared: Bool

    package init(body: ByteBuffer, etag: String, shared: Bool) {
        self.body = .buffer(body)
        self.etag = etag
        self.shared = shared
    }

    /// JSON as it is kept, plain or deflated.
    package init(kept: PagePart, etag: String, shared: Bool) {
        switch kept {
        case .plain(let bytes): body = .buffer(ByteBuffer(bytes: bytes))
        case .deflated(let deflated): body = .deflated(deflated)
        }
        self.etag = etag
        self.shared = shared
    }

    package init(rendering value: some JSONWritable, etag: String? = nil, shared: Bool) throws {
        let bytes = try JSONWriter.bytes(of: value)
        self.init(body: ByteBuffer(bytes: bytes), etag: etag ?? ContentTag.of(bytes), shared: shared)
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        switch body {
        case .buffer(let buffer):
            var headers = Self.headers(etag: etag, shared: shared)
            if ContentTag.matches(request, etag) { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
        case .deflated(let deflated):
            // Two representations of one page: the gzip one has a tag of its own (RFC 9110, 8.8.3), and either tag
            // answers 304, since both say the page has not changed.
            let gzip = GzipMember.accepted(request.headers[.acceptEncoding])
            var headers = Self.headers(etag: gzip ? Self.gzipTag(etag) : etag, shared: shared)
            headers[.vary] = "Authorization, Accept-Encoding"
            if ContentTag.matches(request, etag) || ContentTag.matches(request, Self.gzipTag(etag)) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json; charset=utf-8"
            if gzip { headers[.contentEncoding] = "gzip" }
            let bytes = gzip ? GzipMember.write([.deflated(deflated)]) : try deflated.inflated()
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// `"…"` → `"…-gzip"`.
    static func gzipTag(_ etag: String) -> String { String(etag.dropLast()) + "-gzip\"" }

    package static func headers(etag: String, shared: Bool) -> HTTPFields {
        [
            .eTag: etag,
            .cacheControl: shared ? "public, max-age=1" : "private, no-cache",
            .vary: "Authorization",
        ]
    }
}
