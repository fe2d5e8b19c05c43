import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// Batched opens leave exactly what opening one by one leaves (issue #44): the same random sequence, recorded open
/// by open in one fresh database and written in batches of random sizes in another.
@Suite struct StoreVisitsBatchTests {
    /// 12 live stores and 1 archived, the same ids in every database; users 1 and 2 (a deleted user's opens drop).
    static func stores(_ database: Database) async throws {
        try await database.query(
            "INSERT INTO users (id, name, password_hash, role) VALUES ('1', 'one', '$2b$04$fixture', 'user'), ('2', 'two', '$2b$04$fixture', 'user')"
        )
        try await database.query(
            """
            WITH c AS (INSERT INTO categories (name) VALUES ('火锅') RETURNING id),
            m AS (INSERT INTO users (name, password_hash, role) VALUES ('boss', '$2b$04$fixture', 'manager') RETURNING id)
            INSERT INTO stores (id, name, category_id, manager_id, archived_at)
            SELECT 's' || lpad(n::text, 2, '0'), 'store ' || n, c.id, m.id, CASE WHEN n = 13 THEN now() END
            FROM generate_series(1, 13) AS n, c, m
            """)
    }

    /// The three tables, as text rows in key order.
    static func tables(_ database: Database) async throws -> [String] {
        var all: [String] = []
        for query: PostgresQuery in [
            "SELECT viewer || ' ' || store_id || ' ' || opened_at FROM viewer_store_opens ORDER BY viewer, store_id",
            "SELECT viewer || ' ' || a || ' ' || b || ' ' || at FROM viewer_covisits ORDER BY viewer, a, b",
            "SELECT store_id || ' ' || other_id || ' ' || viewers FROM store_covisits ORDER BY store_id, other_id",
        ] {
            all += try await database.query(query).map { try $0.decode(String.self) }
        }
        return all
    }

    @Test(arguments: [1, 2, 3])
    func batchesLeaveWhatOpensOneByOneLeave(seed: UInt64) async throws {
        var generator = SeededRandom(seed: seed)
        var at = Date(timeIntervalSince1970: 1_790_000_000)
        let viewers = (0..<8).map { "v:\($0)" } + ["u:1", "u:2"]
        let opens = (0..<400).map { _ -> StoreVisits.Open in
            at += [1, 60, 3600, 7200, 40_000].randomElement(using: &generator)!
            let store = "s" + String(format: "%02d", Int.random(in: 1...13, using: &generator))
            return .init(viewer: viewers.randomElement(using: &generator)!, storeID: store, at: at)
        }
        let sizes = (0..<opens.count).map { _ in [1, 5, 40, 150].randomElement(using: &generator)! }
        // MUT: one by one, then in batches.
        let expected = try await TestDatabase.withFresh { database, _ in
            try await Self.stores(database)
            let visits = StoreVisits(database: database)
            for open in opens { try await visits.record(viewer: open.viewer, storeID: open.storeID, at: open.at) }
            return try await Self.tables(database)
        }
        let written = try await TestDatabase.withFresh { database, _ in
            try await Self.stores(database)
            let visits = StoreVisits(database: database)
            var rest = opens[...]
            for size in sizes where !rest.isEmpty {
                try await visits.write(Array(rest.prefix(size)))
                rest = rest.dropFirst(size)
            }
            return try await Self.tables(database)
        }
        // validate
        #expect(!expected.isEmpty)
        #expect(written.count == expected.count)
        let difference = zip(written, expected).first { $0 != $1 }
        #expect(difference == nil, "first difference (batched, one by one): \(String(describing: difference))")
    }

    /// Pairs have no foreign keys (migration 045): a deleted store's pairs go with it, in both tables, and no other.
    @Test func aDeletedStoreForgetsItsPairs() async throws {
        try await TestDatabase.withFresh { database, _ in
            try await Self.stores(database)
            let visits = StoreVisits(database: database)
            let at = Date(timeIntervalSince1970: 1_790_000_000)
            try await visits.write(
                ["s01", "s02", "s03", "s04"].enumerated().map {
                    .init(viewer: "v:a", storeID: $0.element, at: at + Double($0.offset))
                })
            let before = try await Self.tables(database)
            // MUT
            try await database.query("DELETE FROM stores WHERE id = 's02'")
            // validate
            let after = try await Self.tables(database)
            #expect(before.filter { $0.contains("s02") }.count == 1 + 3 + 6)
            #expect(after == before.filter { !$0.contains("s02") })
        }
    }

    /// A batch that pairs a store whose deletion is not yet committed waits for it, then writes no pair with it
    /// (the pairs' stores are locked, as a key's check would lock them), and the batch still succeeds.
    @Test func aStoreDeletedWhileABatchPairsItGetsNoPair() async throws {
        try await TestDatabase.withFresh { database, url in
            try await Self.stores(database)
            let visits = StoreVisits(database: database)
            let at = Date(timeIntervalSince1970: 1_790_000_000)
            try await visits.write([.init(viewer: "v:a", storeID: "s02", at: at)])
            let (deleted, signal) = AsyncStream<Void>.makeStream()
            let (batches, sendBatch) = AsyncStream<Task<Int, any Error>>.makeStream()
            // MUT: the delete holds its transaction open until the batch waits on the store's row, or has returned
            // without waiting (then the check below fails).
            let deleting = Task {
                // A delete that fails still ends the stream, so the batch below does not wait for it forever.
                defer { signal.finish() }
                return try await database.transaction { connection in
                    try await connection.query("DELETE FROM stores WHERE id = 's02'", logger: database.logger)
                    signal.yield()
                    for await batch in batches {
                        return try await TestDatabase.waitForLockWait(in: url.database, longerThan: .zero, or: batch)
                    }
                    return false
                }
            }
            for await _ in deleted { break }
            let batch = Task { try await visits.write([.init(viewer: "v:a", storeID: "s03", at: at + 60)]) }
            sendBatch.yield(batch)
            sendBatch.finish()
            let counted = try await batch.value
            // validate
            let waited = try await deleting.value
            #expect(waited, "the batch never waited for the delete")
            #expect(counted == 0)
            let tables = try await Self.tables(database)
            #expect(!tables.contains { $0.contains("s02") })
            #expect(tables.contains { $0.hasPrefix("v:a s03 ") })
        }
    }
}
