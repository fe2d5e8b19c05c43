import Foundation
import Metrics
import NIOCore
import Synchronization

/// An in-memory LRU of what many viewers read alike, capped in bytes and invalidated by tags (migration 016 lists
/// them). It answers only while its listener hears PostgreSQL (`CacheListener` marks it live), so a server that
/// stopped hearing invalidations stops serving entries instead of serving stale ones.
///
/// A fill races with writes: a value read before a write commits may arrive after that write's invalidation. So a
/// reader takes a `Ticket` before it reads, and `insert` drops the value when any of its tags (or everything) was
/// invalidated after the ticket.
public final class ReadCache: Sendable {
    public struct Ticket: Sendable {
        let sequence: UInt64
    }

    /// A cached value with its HTTP validator and, for JSON answers, the anonymous body ready to send. A class: a
    /// hit hands out one reference instead of copying (and retaining every string of) a store view.
    public final class Entry<Value: Sendable>: Sendable {
        public let value: Value
        /// Kept at its exact size (a `ByteBuffer` rounds its storage up to a power of two): a page of comments
        /// would take half as much again.
        package let json: [UInt8]
        public let etag: String
        /// When `json` was written: what it computed from the clock (a store's `openNow`) was true then.
        let renderedAt: Date
        /// The last minute (since the epoch, by the server's clock) at which `json`'s clock-computed parts were
        /// found still true; `Int64.min` before any check.
        let heldMinute = Atomic<Int64>(Int64.min)
        /// HTML a front end rendered from `value` alone, by variant (a store's card per language and list): it lives
        /// exactly as long as the entry, which is replaced whenever anything it shows changes.
        package let fragments = Mutex<[String: [UInt8]]>([:])

        package init(value: Value, json: [UInt8], etag: String, renderedAt: Date = ServerClock.now()) {
            self.value = value
            self.json = json
            self.etag = etag
            self.renderedAt = renderedAt
        }

        /// The anonymous JSON to send.
        public var body: ByteBuffer { ByteBuffer(bytes: json) }
    }

    package let name: String
    package let capacity: Int
    /// Shared with the server's other caches (`CacheBudget`); nil: this cache's own cap alone.
    let budget: CacheBudget?
    /// Heard from the listener at most this long ago, or entries are not served.
    let freshness: Duration
    private let state: Mutex<LRU>
    /// Reads in flight by key (`entry`): each a `Task<Entry<Value>, any Error>`.
    let flights = Mutex<[String: any Sendable]>([:])
    /// Search pages a review's or a score's event dropped (issue #44), by key, kept to answer (`approximate`) while
    /// their refill waits its turn at the search gate; a fill of the key, a structural change (`search`, `*`) or a
    /// lost listener takes them away. Bounded by `shelfLimit` entries (past it, arbitrary ones leave).
    private let shelf = Mutex<[String: any Sendable]>([:])
    static let shelfLimit = 20_000
    /// When the last heartbeat heard was sent (`Monotonic.nanoseconds`).
    private let heard = Atomic<Int64>(Int64.min)

    /// Whether a write request reads around it (`bypass`): yes for what pages show, no for sessions, which a write
    /// request only checks.
    let bypassable: Bool
    /// Whether it holds search pages, which hear migration 019's `search:` events.
    let holdsSearches: Bool

    /// `chidian_cache_lookups_total{cache, result}`: hits, misses, and lookups while not live (`off`).
    private let hits: Counter
    private let misses: Counter
    private let offs: Counter
    /// `chidian_cache_wipes_total{cache}`: every entry dropped at once (`*`, a lost listener, a fence unheard).
    private let wipes: Counter
    /// `chidian_cache_scan_fallbacks_total{cache}`: events past the scan budget, applied by their fallback tag.
    private let fallbacks: Counter
    /// This second's scanning: when it began and the nanoseconds spent.
    private let scanTime = Mutex<(start: Int64, spent: Int64)>((0, 0))
    /// `chidian_cache_bytes{cache}` and `chidian_cache_entries{cache}`, as counted against the cap (`report`).
    private let bytesGauge: Gauge
    private let entriesGauge: Gauge

    public init(
        name: String, capacityBytes: Int, freshness: Duration = .milliseconds(900), bypassable: Bool = true,
        holdsSearches: Bool = false, scanBudget: Duration = .milliseconds(50), budget: CacheBudget? = nil
    ) {
        self.budget = budget
        self.scanBudget = Monotonic.nanoseconds(scanBudget)
        self.name = name
        self.bypassable = bypassable
        self.holdsSearches = holdsSearches
        capacity = capacityBytes
        self.freshness = freshness
        state = Mutex(LRU())
        let lookups = "chidian_cache_lookups_total"
        hits = Counter(label: lookups, dimensions: [("cache", name), ("result", "hit")])
        misses = Counter(label: lookups, dimensions: [("cache", name), ("result", "miss")])
        offs = Counter(label: lookups, dimensions: [("cache", name), ("result", "off")])
        wipes = Counter(label: "chidian_cache_wipes_total", dimensions: [("cache", name)])
        fallbacks = Counter(label: "chidian_cache_scan_fallbacks_total", dimensions: [("cache", name)])
        bytesGauge = Gauge(label: "chidian_cache_bytes", dimensions: [("cache", name)])
        entriesGauge = Gauge(label: "chidian_cache_entries", dimensions: [("cache", name)])
    }

    /// Publishes the size gauges (the listener does, with each heartbeat).
    package func report() {
        let (bytes, count) = state.withLock { ($0.bytes, $0.index.count) }
        bytesGauge.record(bytes)
        entriesGauge.record(count)
    }

    // MARK: Liveness

    /// The listener heard its heartbeat sent at `sentAt`: every invalidation committed before then is applied.
    func heard(sentAt: Int64) { heard.store(sentAt, ordering: .releasing) }

    /// Whether entries may be served: the last heartbeat heard was sent within `freshness`.
    public var isLive: Bool {
        let last = heard.load(ordering: .acquiring)
        guard last != Int64.min else { return false }
        return Monotonic.nanoseconds - last <= Monotonic.nanoseconds(freshness)
    }

    /// The listener lost its connection: nothing is served or stored until it listens again.
    func silence() {
        heard.store(Int64.min, ordering: .releasing)
        removeAll()
    }

    // MARK: Reads and fills

    public func ticket() -> Ticket { state.withLock { Ticket(sequence: $0.sequence) } }

    /// Set for the whole of a write request (`WriteFenceMiddleware`): what it reads back after writing must be
    /// what it wrote, and its invalidations are still on their way.
    @TaskLocal static var bypass = false

    public func get<Value: Sendable>(_ key: String, as type: Value.Type = Value.self) -> Entry<Value>? {
        guard !(bypassable && Self.bypass) else { return nil }
        guard isLive else {
            offs.increment()
            return nil
        }
        let found = state.withLock { $0.get(key) as? Entry<Value> }
        (found == nil ? misses : hits).increment()
        return found
    }

    /// The entries under `keys` (nil where missing) in one look: one lock, one liveness check, one count. nil when
    /// not served at all. The following feed reads a thousand timelines a page.
    public func getAll<Value: Sendable>(_ keys: [String], as type: Value.Type = Value.self) -> [Entry<Value>?]? {
        guard !(bypassable && Self.bypass) else { return nil }
        guard isLive else {
            offs.increment(by: keys.count)
            return nil
        }
        let found = state.withLock { lru in keys.map { lru.get($0) as? Entry<Value> } }
        let hitCount = found.count { $0 != nil }
        hits.increment(by: hitCount)
        misses.increment(by: keys.count - hitCount)
        return found
    }

    /// Stores `entry` unless something it shows changed after `ticket`, or it alone exceeds an eighth of the cap.
    /// `cost` estimates the value's own bytes; the body's allocation, the key and the tags are added here (measured
    /// against RSS: `docs/BENCHMARKS.md`).
    public func insert<Value: Sendable>(
        _ key: String, _ entry: Entry<Value>, tags: [String], cost: Int, since ticket: Ticket
    ) {
        guard isLive, !(bypassable && Self.bypass) else { return }
        let cost = cost + entry.json.count + 2 * key.utf8.count + 64 * tags.count + 256
        guard cost <= capacity / 8 else { return }
        let summary = holdsSearches ? (entry as? Entry<SearchRepository.Hits>)?.value.scanSummary : nil
        let kept = changing { lru -> Bool in
            guard lru.unchanged(tags, since: ticket.sequence), lru.unmatched(entry, since: ticket.sequence) else {
                return false
            }
            lru.insert(key, value: entry, tags: tags, cost: cost, summary: summary, capacity: allowance(lru.bytes))
            return true
        }
        if holdsSearches, kept { _ = shelf.withLock { $0.removeValue(forKey: key) } }
        if kept, let budget, budget.borrower !== self { budget.lenderGrew() }
    }

    /// The page `key` held before an event dropped it, while it is not refilled.
    public func stale<Value: Sendable>(_ key: String, as type: Value.Type = Value.self) -> Entry<Value>? {
        guard holdsSearches, isLive, !(bypassable && Self.bypass) else { return nil }
        return shelf.withLock { $0[key] as? Entry<Value> }
    }

    private func shelve(_ dropped: [(key: String, value: LRU.Held)]) {
        guard holdsSearches, !dropped.isEmpty else { return }
        shelf.withLock { shelf in
            // Room by dropping arbitrary pages, not all of them: an emptied shelf sends every miss to the gate.
            let excess = shelf.count + dropped.count - Self.shelfLimit
            if excess > 0 { for key in Array(shelf.keys.prefix(excess)) { shelf[key] = nil } }
            for (key, value) in dropped { shelf[key] = value }
        }
    }

    // MARK: Invalidation

    public func invalidate(_ tag: String) {
        if tag == "*" { return removeAll() }
        if holdsSearches && tag == "search" { shelf.withLock { $0 = [:] } }
        _ = changing { $0.invalidate(tag) }
    }

    /// Drops every entry `matches` picks (search pages a write can change: `SearchInvalidation`), and refuses fills
    /// in flight that it would have picked. A scan visits every entry, so its cost is capped: past `scanBudget` of
    /// CPU in a second, the event drops every entry under `fallback` instead (what every review did before issue
    /// #31), which is cheap and leaves little to scan; the listener never falls behind the writes it hears.
    ///
    /// The cost is the listener thread's own CPU time, not the time between the scan's ends: on a loaded machine a
    /// scan of a millisecond's work waited for a core and for the lock many times over, the budget ran out on
    /// waiting, and the fallbacks emptied the searches' cache twice a second (issue #44: 9,670 warm pages fell to
    /// 359 in the mix, half its searches missed).
    func invalidate(
        matching matches: @escaping @Sendable (any Sendable) -> Bool,
        prefilter: @Sendable (SearchInvalidation.ScanSummary) -> Bool = { _ in true }, keys: [UInt64]? = nil,
        fallback: String
    ) {
        let now = Monotonic.nanoseconds
        let over = scanTime.withLock { window -> Bool in
            if now - window.start >= 1_000_000_000 { window = (now, 0) }
            return window.spent >= scanBudget
        }
        if over {
            // Too many events to judge one by one: all pages go, each kept on the shelf like a judged one.
            fallbacks.increment()
            return shelve(changing { $0.invalidate(fallback) })
        }
        let started = Self.threadCPUNanoseconds
        shelve(changing { $0.invalidate(matching: matches, prefilter: prefilter, keys: keys) })
        let spent = Self.threadCPUNanoseconds - started
        scanTime.withLock { $0.spent += spent }
    }

    /// Nanoseconds of scanning's CPU a second (default 5 % of a core).
    let scanBudget: Int64

    /// The CPU time this thread has used, in nanoseconds (a scan runs on one thread: it never suspends).
    static var threadCPUNanoseconds: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    public func removeAll() {
        wipes.increment()
        changing { $0.removeAll() }
        shelf.withLock { $0 = [:] }
    }

    // MARK: The budget

    /// `body` on the LRU, its change of bytes told to the budget.
    private func changing<Result: Sendable>(_ body: (inout LRU) -> Result) -> Result {
        state.withLock { lru in
            let before = lru.bytes
            let result = body(&lru)
            budget?.add(lru.bytes - before)
            return result
        }
    }

    /// The bytes this cache may hold: its cap, or for the budget's borrower, what the other caches leave.
    private func allowance(_ held: Int) -> Int {
        guard let budget, budget.borrower === self else { return capacity }
        return max(capacity, budget.limit - (budget.total - held))
    }

    /// Gives back what it borrowed while the caches are over the budget (a lender filled).
    func shed() {
        changing { lru in lru.evict(downTo: allowance(lru.bytes)) }
    }

    public var bytes: Int { state.withLock { $0.bytes } }
    public var count: Int { state.withLock { $0.index.count } }
}

/// The LRU itself: nodes in an array linked by index (no allocation per hit), a key index, and a tag index. The
/// links live in arrays of their own: a hit relinks its slot without copying the node (a copy retained its key,
/// value and tags, a fifth of a pick's server time in perf).
private struct LRU: ~Copyable {
    /// Every value is an `Entry`: held as a class reference, a hit's cast is a class check, not an existential's
    /// (a tenth of a pick, which looks up a hundred scores, went to the existential copy and cast).
    typealias Held = AnyObject & Sendable

    final class Node {
        let key: String
        let value: Held
        /// Its tags but its own key: a store's entry is tagged with its key alone, and is found by it in `index`
        /// without a one-element set of its own in `byTag` (one per cached store: a city's worth at 200,000).
        let tags: [String]
        let keyIsTag: Bool
        let cost: Int
        /// A search page's, which an event's prefilter reads before its rules (nil: the rules judge it).
        let summary: SearchInvalidation.ScanSummary?

        init(key: String, value: Held, tags: [String], cost: Int, summary: SearchInvalidation.ScanSummary?) {
            self.key = key
            self.value = value
            keyIsTag = tags.contains(key)
            self.tags = keyIsTag ? tags.filter { $0 != key } : tags
            self.cost = cost
            self.summary = summary
        }
    }

    var nodes: [Node?] = []
    /// Each slot's neighbours, newer and older (-1: none).
    var newer: [Int] = []
    var older: [Int] = []
    var free: [Int] = []
    var index: [String: Int] = [:]
    var byTag: [String: Set<String>] = [:]
    /// Search pages by their summaries' keys, and those every event visits (`always`): an event with keys visits
    /// only the pages under them. Entries without a summary are counted: with any, every event visits all.
    var byScanKey: [UInt64: Set<Int>] = [:]
    var scanAlways: Set<Int> = []
    var unsummarized = 0
    var newest = -1
    var oldest = -1
    var bytes = 0
    /// Bumped by every invalidation; `stamps` holds each tag's last one (bounded: see `remember`).
    var sequence: UInt64 = 0
    var stamps: [String: UInt64] = [:]
    var floor: UInt64 = 0
    /// The last predicates (`invalidate(matching:)`) with their sequence, so a fill that began before one is
    /// judged by it; a fill older than the oldest kept is refused.
    var predicates: [(sequence: UInt64, matches: @Sendable (any Sendable) -> Bool)] = []
    var predicateFloor: UInt64 = 0

    mutating func get(_ key: String) -> (Held)? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return nodes[slot]!.value
    }

    func unchanged(_ tags: [String], since ticket: UInt64) -> Bool {
        guard ticket >= floor else { return false }
        return tags.allSatisfy { (stamps[$0] ?? 0) <= ticket }
    }

    func unmatched(_ value: any Sendable, since ticket: UInt64) -> Bool {
        guard ticket >= predicateFloor else { return false }
        for predicate in predicates.reversed() {
            if predicate.sequence <= ticket { break }
            if predicate.matches(value) { return false }
        }
        return true
    }

    /// Returns what it dropped.
    mutating func invalidate(
        matching matches: @escaping @Sendable (any Sendable) -> Bool,
        prefilter: (SearchInvalidation.ScanSummary) -> Bool, keys: [UInt64]?
    ) -> [(key: String, value: Held)] {
        sequence += 1
        if predicates.count >= 1024 {
            predicates.removeFirst(predicates.count - 1023)
            predicateFloor = predicates[0].sequence - 1
        }
        predicates.append((sequence, matches))
        var doomed: [Int] = []
        func visit(_ slot: Int) {
            guard let node = nodes[slot] else { return }
            if let summary = node.summary, !prefilter(summary) { return }
            if matches(node.value) { doomed.append(slot) }
        }
        if let keys, unsummarized == 0 {
            var picked = scanAlways
            for key in keys { if let slots = byScanKey[key] { picked.formUnion(slots) } }
            for slot in picked { visit(slot) }
        } else {
            for slot in nodes.indices { visit(slot) }
        }
        let dropped = doomed.map { (key: nodes[$0]!.key, value: nodes[$0]!.value) }
        for slot in doomed { remove(slot) }
        return dropped
    }

    mutating func insert(
        _ key: String, value: Held, tags: [String], cost: Int, summary: SearchInvalidation.ScanSummary?, capacity: Int
    ) {
        if let slot = index[key] { remove(slot) }
        let node = Node(key: key, value: value, tags: tags, cost: cost, summary: summary)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
            newer.append(-1)
            older.append(-1)
        }
        index[key] = slot
        for tag in node.tags { byTag[tag, default: []].insert(key) }
        if let summary {
            if summary.always { scanAlways.insert(slot) }
            for scanKey in summary.keys { byScanKey[scanKey, default: []].insert(slot) }
        } else {
            unsummarized += 1
        }
        bytes += cost
        link(slot)
        while bytes > capacity, oldest != -1, oldest != slot { remove(oldest) }
    }

    mutating func evict(downTo limit: Int) {
        while bytes > limit, oldest != -1 { remove(oldest) }
    }

    /// Returns what it dropped.
    mutating func invalidate(_ tag: String) -> [(key: String, value: Held)] {
        remember(tag)
        var dropped: [(key: String, value: Held)] = []
        if let slot = index[tag], nodes[slot]!.keyIsTag {
            dropped.append((tag, nodes[slot]!.value))
            remove(slot)
        }
        for key in byTag[tag] ?? [] {
            if let slot = index[key] {
                dropped.append((key, nodes[slot]!.value))
                remove(slot)
            }
        }
        return dropped
    }

    mutating func removeAll() {
        sequence += 1
        floor = sequence
        stamps = [:]
        predicates = []
        nodes = []
        newer = []
        older = []
        free = []
        index = [:]
        byTag = [:]
        byScanKey = [:]
        scanAlways = []
        unsummarized = 0
        newest = -1
        oldest = -1
        bytes = 0
    }

    /// The stamp of an invalidated tag. The map stays small: past 50,000 tags it is dropped and every older ticket
    /// refused instead.
    private mutating func remember(_ tag: String) {
        sequence += 1
        if stamps.count >= 50_000 {
            stamps = [:]
            floor = sequence
        }
        stamps[tag] = sequence
    }

    private mutating func remove(_ slot: Int) {
        let node = nodes[slot]!
        unlink(slot)
        index[node.key] = nil
        for tag in node.tags {
            byTag[tag]?.remove(node.key)
            if byTag[tag]?.isEmpty == true { byTag[tag] = nil }
        }
        if let summary = node.summary {
            scanAlways.remove(slot)
            for scanKey in summary.keys {
                byScanKey[scanKey]?.remove(slot)
                if byScanKey[scanKey]?.isEmpty == true { byScanKey[scanKey] = nil }
            }
        } else {
            unsummarized -= 1
        }
        bytes -= node.cost
        nodes[slot] = nil
        free.append(slot)
    }

    private mutating func link(_ slot: Int) {
        older[slot] = newest
        newer[slot] = -1
        if newest != -1 { newer[newest] = slot }
        newest = slot
        if oldest == -1 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (next, previous) = (newer[slot], older[slot])
        if next != -1 { older[next] = previous } else { newest = previous }
        if previous != -1 { newer[previous] = next } else { oldest = next }
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        link(slot)
    }
}

/// Nanoseconds since this process began, for times that threads compare through an atomic.
enum Monotonic {
    package static let origin = ContinuousClock.now

    static var nanoseconds: Int64 { nanoseconds(ContinuousClock.now - origin) }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
