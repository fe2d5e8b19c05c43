import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// The open buffer: bounded, ordered, and a failed flush loses nothing.
@Suite struct VisitBufferTests {
    static func open(_ n: Int) -> StoreVisits.Open {
        .init(viewer: "v:\(n % 3)", storeID: "s\(n)", at: Date(timeIntervalSince1970: Double(1_790_000_000 + n)))
    }

    @Test func keepsOrderAndDropsPastCapacity() {
        let buffer = VisitBuffer(capacity: 5)
        for n in 0..<8 { buffer.record(Self.open(n)) }
        #expect(buffer.take() == (0..<5).map(Self.open))
        #expect(buffer.take().isEmpty)
    }

    @Test func aRestoredBatchGoesBackInFront() {
        let buffer = VisitBuffer(capacity: 10)
        for n in 0..<3 { buffer.record(Self.open(n)) }
        let batch = buffer.take()
        for n in 3..<5 { buffer.record(Self.open(n)) }
        buffer.restore(batch)
        #expect(buffer.take() == (0..<5).map(Self.open))
    }

    @Test func aFlushWritesEverythingOnceAndAFailedOneKeepsIt() async throws {
        try await TestDatabase.withFresh { database, _ in
            try await StoreVisitsBatchTests.stores(database)
            let buffer = VisitBuffer()
            let flusher = VisitFlusher(
                buffer: buffer, visits: StoreVisits(database: database), interval: .seconds(3600),
                logger: TestDatabase.logger)
            let at = Date(timeIntervalSince1970: 1_790_000_000)
            for (n, store) in ["s01", "s02", "s03"].enumerated() {
                buffer.record(.init(viewer: "v:a", storeID: store, at: at + Double(n)))
            }
            // MUT
            try await flusher.flush()
            try await flusher.flush()
            // validate: three opens, three pairs, each counted once in both directions.
            let counts = try await database.query(
                """
                SELECT (SELECT count(*) FROM viewer_store_opens)::int, (SELECT count(*) FROM viewer_covisits)::int,
                       (SELECT sum(viewers) FROM store_covisits)::int
                """)[0].decode((Int, Int, Int).self)
            #expect(counts == (3, 3, 6))
            #expect(buffer.count == 0)
            // A batch naming a store that breaks the statement (a viewer key the table refuses) stays pending.
            buffer.record(.init(viewer: "bad", storeID: "s01", at: at))
            await #expect(throws: (any Error).self) { try await flusher.flush() }
            #expect(buffer.count == 1)
        }
    }
}
