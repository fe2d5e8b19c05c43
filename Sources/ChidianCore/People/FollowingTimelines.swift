import Foundation
import PostgresNIO

/// The following feed's first page from memory. The statement fans out on read, one index probe per followee:
/// about 2.5 ms of database time for someone following 1,000, so 64 readers queue. Here each server keeps, per
/// author, the keys of their newest live reviews and, per user, whom they follow (tags `t:<author>` and
/// `f:<user>`, migration 025), and merges them; the cards come from the reviews kept as everyone sees them
/// (`cm:<id>`). A review invalidates its author's keys alone, so a timeline survives everyone else's posting.
struct FollowingTimelines: Sendable {
    /// A review's place in the newest-first order: creation in microseconds, then id (the database's order: its
    /// ids are ASCII and compared bytewise, as `String` does).
    struct Head: Sendable, Comparable {
        package let micros: Int64
        package let id: String
        /// `created_at::text`, the page cursor's key, as the statement writes it.
        package let key: String

        package init(micros: Int64, id: String, key: String = "") {
            self.micros = micros
            self.id = id
            self.key = key
        }

        package static func < (a: Head, b: Head) -> Bool { (a.micros, a.id) < (b.micros, b.id) }
    }

    /// An author's newest reviews, newest first; `complete` when these are all of them.
    struct Timeline: Sendable {
        let heads: [Head]
        package let complete: Bool
    }

    /// Reviews kept per author: a default page and the one that says whether another follows.
    package static let depth = 21
    /// A longer following list is read by the statement: merging it here would cost more than it saves.
    static let maxFollowees = 5_000

    package let cache: ReadCache
    package let database: Database

    /// The `count` newest reviews by the people `followerID` follows, newest first; nil when memory cannot answer
    /// exactly (a page longer than `depth`, too many followees, or an author whose kept reviews run out before the
    /// page is full).
    package func newest(followerID: String, count: Int) async throws -> [Head]? {
        guard count <= Self.depth else { return nil }
        // Kept as the timelines' keys: a page looks them all up, and need not build a thousand strings.
        let keys = try await cache.entry(
            "fl:" + followerID, tags: { _ in ["f:" + followerID] }, cost: { 64 + 48 * $0.count }
        ) {
            try await database.query(
                """
                SELECT 't:' || followee_id FROM follows WHERE follower_id = \(followerID)
                LIMIT \(Self.maxFollowees + 1)
                """
            ).map { try $0.decode(String.self) }
        }.value
        guard keys.count <= Self.maxFollowees else { return nil }
        guard keys.count >= Self.keptFrom else {
            guard let timelines = try await timelines(keys) else { return nil }
            return Self.mergeHeads(timelines, count: count)
        }
        // Merging a thousand timelines cost more than the rest of the page: the merged page is kept too, under every
        // timeline's tag and the follow list's, so it goes exactly when one of them would.
        do {
            return try await cache.entry(
                "fm:\(followerID):\(count)", tags: { _ in keys + ["f:" + followerID] },
                cost: { 64 + 96 * ($0?.count ?? 0) }
            ) { () async throws -> [Head]? in
                guard let timelines = try await timelines(keys) else { throw NotServing() }
                return Self.mergeHeads(timelines, count: count)
            }.value
        } catch is NotServing {
            return nil
        }
    }

    /// A following list this long has its merged page kept.
    static let keptFrom = 64

    /// The cache stopped serving while a merged page was read: the statement answers.
    private struct NotServing: Error {}

    /// The timelines under `keys` (`t:<author>`), from memory or, for those missing, from one statement; nil when
    /// the cache is not serving.
    func timelines(_ keys: [String]) async throws -> [Timeline]? {
        guard let hits = cache.getAll(keys, as: Timeline.self) else { return nil }
        var found: [Timeline] = []
        found.reserveCapacity(keys.count)
        var missing: [String] = []
        for (key, hit) in zip(keys, hits) {
            if let hit {
                found.append(hit.value)
            } else {
                missing.append(String(key.dropFirst(2)))
            }
        }
        guard !missing.isEmpty else { return found }
        let ticket = cache.ticket()
        let rows = try await database.query(
            """
            SELECT a.author, x.micros, x.id, x.key FROM unnest(\(missing)::text[]) AS a (author)
            LEFT JOIN LATERAL (
                SELECT (EXTRACT(EPOCH FROM c.created_at) * 1000000)::int8 AS micros, c.id, c.created_at::text AS key
                FROM comments c
                WHERE c.author_id = a.author AND c.hidden_at IS NULL AND c.kind = 'review' AND NOT c.store_archived AND c.recommended
                ORDER BY c.created_at DESC, c.id DESC
                LIMIT \(Self.depth)
            ) x ON true
            """)
        var loaded: [String: [Head]] = [:]
        for row in rows {
            let (author, micros, id, key) = try row.decode((String, Int64?, String?, String?).self)
            var heads = loaded[author] ?? []
            if let micros, let id, let key { heads.append(Head(micros: micros, id: id, key: key)) }
            loaded[author] = heads
        }
        for (author, heads) in loaded {
            let timeline = Timeline(heads: heads.sorted(by: >), complete: heads.count < Self.depth)
            cache.insert(
                "t:" + author, ReadCache.Entry(value: timeline, json: [], etag: ""), tags: ["t:" + author],
                cost: 64 + 96 * heads.count, since: ticket)
            found.append(timeline)
        }
        return found
    }

    /// The `count` newest heads of all `timelines`, merged through a heap of each one's next head; nil when an
    /// incomplete timeline runs out before the last one is taken (its unkept reviews could come next).
    package static func merge(_ timelines: [Timeline], count: Int) -> [String]? {
        mergeHeads(timelines, count: count)?.map(\.id)
    }

    static func mergeHeads(_ timelines: [Timeline], count: Int) -> [Head]? {
        var heap = Heap()
        for (index, timeline) in timelines.enumerated() where !timeline.heads.isEmpty {
            heap.push(Cursor(head: timeline.heads[0], timeline: index, position: 0))
        }
        var ids: [Head] = []
        ids.reserveCapacity(count)
        while ids.count < count, let top = heap.pop() {
            ids.append(top.head)
            let timeline = timelines[top.timeline]
            let next = top.position + 1
            if next < timeline.heads.count {
                heap.push(Cursor(head: timeline.heads[next], timeline: top.timeline, position: next))
            } else if !timeline.complete, ids.count < count {
                return nil
            }
        }
        return ids
    }

    struct Cursor {
        package let head: Head
        let timeline: Int
        package let position: Int
    }

    /// A binary max-heap by head.
    struct Heap {
        private var items: [Cursor] = []

        mutating func push(_ item: Cursor) {
            items.append(item)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[parent].head < items[child].head else { break }
                items.swapAt(parent, child)
                child = parent
            }
        }

        mutating func pop() -> Cursor? {
            guard !items.isEmpty else { return nil }
            items.swapAt(0, items.count - 1)
            let top = items.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largest = parent
                if left < items.count, items[largest].head < items[left].head { largest = left }
                if right < items.count, items[largest].head < items[right].head { largest = right }
                if largest == parent { break }
                items.swapAt(parent, largest)
                parent = largest
            }
            return top
        }
    }
}
