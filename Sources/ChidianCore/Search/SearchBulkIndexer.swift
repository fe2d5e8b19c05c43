import Foundation
import Logging
import PostgresNIO

/// Recomputes the review summaries of many stores at once, for the seed import (which merges reviews with the
/// comments triggers skipped). The counting that `search_rebuild` does in SQL is done here instead, several
/// times faster: PostgreSQL lowercases each review (so case folding is exactly the triggers'), this process
/// collects its distinct characters, character pairs and vocabulary dishes, and the counts go back by COPY into
/// `search_rebuild_counts` for `search_rebuild_apply` to write, a thousand stores at a time. A bulk rebuild writes
/// fresh tables that `search_rebuild_end` swaps in (migration 005): the caller must commit right after it.
enum SearchBulkIndexer {
    static let batchSize = 1000

    /// Rebuilds the stores listed by `storesSQL` (a constant query returning store ids, never input). `bulk` nil
    /// lets `search_rebuild_begin` choose between rebuilding the indexes and writing only what differs.
    static func rebuild(storesSQL: String, bulk: Bool? = nil, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        let mode = bulk.map { $0 ? "true" : "false" } ?? "NULL"
        let bulk = try await connection.rows(
            PostgresQuery(unsafeSQL: "SELECT search_rebuild_begin(ARRAY(\(storesSQL)), \(mode))"), logger: logger
        )[0].decodeAll(Bool.self)
        let dishes = try await DishMatcher(
            rows: connection.rows(
                "SELECT id::bigint, lname FROM search_dishes WHERE char_length(lname) >= 3", logger: logger
            ).map { try $0.decodeAll((Int, String).self) })
        let batches = try await connection.rows("SELECT search_rebuild_batches(\(batchSize)::int)", logger: logger)
            .map { try $0.decodeAll([Int].self) }
        for keys in batches {
            var counter = GramCounter(dishes: dishes)
            let reviews = try await connection.rows(
                """
                SELECT k.key::bigint, lower(c.body) FROM search_rebuild_keys k
                JOIN comments c ON c.store_id = k.store_id AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended
                WHERE k.key = ANY (\(keys)::int[])
                """, logger: logger)
            for row in reviews {
                let (store, body) = try row.decodeAll((Int, String).self)
                counter.add(store: store, lowered: body)
            }
            let counted = counter
            if bulk {
                // The fresh tables of a bulk rebuild have no indexes yet: the counts go straight in.
                try connection.requireOpen()
                try await connection.copyFrom(
                    table: "search_review_grams_next", columns: ["store_key", "review_count", "gram"], logger: logger
                ) { writer in try await counted.writeGrams(to: writer) }
                if counted.mentionsDishes {
                    try connection.requireOpen()
                    try await connection.copyFrom(
                        table: "search_dish_stores_next", columns: ["store_key", "review_count", "dish_id"],
                        logger: logger
                    ) { writer in try await counted.writeDishes(to: writer) }
                }
            } else {
                try connection.requireOpen()
                try await connection.copyFrom(
                    table: "search_rebuild_counts", columns: ["store_key", "review_count", "item", "kind"],
                    logger: logger
                ) { writer in
                    try await counted.writeGrams(to: writer, kind: "0")
                    try await counted.writeDishes(to: writer, kind: "1")
                }
                try await connection.rows("SELECT search_rebuild_apply(\(keys)::int[], false)", logger: logger)
            }
        }
        try await connection.rows("SELECT search_rebuild_index(\(bulk))", logger: logger)
        try await ImportPause.reached(.summariesIndexed)
        try await connection.rows("SELECT search_rebuild_end(\(bulk))", logger: logger)
    }
}

/// Finds the vocabulary dishes (of 3 or more characters) a lowercased review mentions, as `search_dishes_in` does:
/// candidates by their first two characters, confirmed by a byte-for-byte substring search.
struct DishMatcher: Sendable {
    private var byLead: [UInt64: [(id: Int, bytes: [UInt8])]] = [:]

    package init(rows: [(Int, String)]) {
        for (id, lname) in rows {
            let scalars = Array(lname.unicodeScalars)
            guard scalars.count >= 3 else { continue }
            byLead[GramCounter.pair(scalars[0], scalars[1]), default: []].append((id, Array(lname.utf8)))
        }
    }

    /// Calls `found` once for each dish whose lead pair is in `pairs` and whose name is in `body`.
    package func dishes(in body: [UInt8], pairs: Set<UInt64>, _ found: (Int) -> Void) {
        for pair in pairs {
            guard let candidates = byLead[pair] else { continue }
            for dish in candidates where Self.contains(body, dish.bytes) { found(dish.id) }
        }
    }

    package static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        let first = needle[0]
        var start = 0
        let last = haystack.count - needle.count
        while start <= last {
            if haystack[start] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return true }
            }
            start += 1
        }
        return false
    }
}

/// Per-store counts of reviews containing each gram (a character or a pair of adjacent characters, as code points)
/// and each dish. Grams are packed into integers while counting: a character is its code point, a pair is the
/// first code point shifted past 21 bits plus the second, which no single code point reaches.
struct GramCounter {
    package let dishes: DishMatcher
    private var grams: [Int: [UInt64: Int32]] = [:]
    private var dishCounts: [Int: [Int: Int32]] = [:]
    private var seen = Set<UInt64>()
    private var seenPairs = Set<UInt64>()
    private var found = Set<Int>()

    package init(dishes: DishMatcher) {
        self.dishes = dishes
    }

    package static func pair(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> UInt64 {
        UInt64(a.value) << 21 | UInt64(b.value)
    }

    /// Counts one review of `store`, already lowercased by PostgreSQL.
    package mutating func add(store: Int, lowered body: String) {
        seen.removeAll(keepingCapacity: true)
        seenPairs.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
        var previous: Unicode.Scalar?
        for scalar in body.unicodeScalars {
            seen.insert(UInt64(scalar.value))
            if let previous { seenPairs.insert(Self.pair(previous, scalar)) }
            previous = scalar
        }
        // Mutated in place: taking a store's dictionary out and back would copy it for every review.
        for gram in seen { grams[store, default: [:]][gram, default: 0] += 1 }
        for gram in seenPairs { grams[store, default: [:]][gram, default: 0] += 1 }
        var mentioned = found
        dishes.dishes(in: Array(body.utf8), pairs: seenPairs) { mentioned.insert($0) }
        for dish in mentioned { dishCounts[store, default: [:]][dish, default: 0] += 1 }
        found = mentioned
    }

    var mentionsDishes: Bool { !dishCounts.isEmpty }

    /// Streams (store key, review count, gram[, kind]) rows in COPY text format.
    func writeGrams(to writer: PostgresCopyFromWriter, kind: String? = nil) async throws {
        var buffer = CopyBuffer()
        for (store, counts) in grams {
            let key = String(store)
            for (gram, count) in counts {
                buffer.append(
                    kind.map { [key, String(count), Self.text(gram), $0] } ?? [key, String(count), Self.text(gram)])
                if buffer.isFull { try await buffer.flush(to: writer) }
            }
        }
        try await buffer.flush(to: writer)
    }

    /// Streams (store key, review count, dish id[, kind]) rows in COPY text format.
    func writeDishes(to writer: PostgresCopyFromWriter, kind: String? = nil) async throws {
        var buffer = CopyBuffer()
        for (store, counts) in dishCounts {
            let key = String(store)
            for (dish, count) in counts {
                buffer.append(
                    kind.map { [key, String(count), String(dish), $0] } ?? [key, String(count), String(dish)])
            }
        }
        try await buffer.flush(to: writer)
    }

    package static func text(_ gram: UInt64) -> String {
        var scalars = String.UnicodeScalarView()
        if gram >> 21 != 0, let first = Unicode.Scalar(UInt32(gram >> 21)) { scalars.append(first) }
        if let last = Unicode.Scalar(UInt32(gram & 0x1F_FFFF)) { scalars.append(last) }
        return String(scalars)
    }
}
