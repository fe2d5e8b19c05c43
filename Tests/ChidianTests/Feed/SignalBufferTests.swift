import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// The signal buffer: bounded, ordered, and a failed flush loses nothing.
@Suite struct SignalBufferTests {
    static func open(_ n: Int) -> StoreVisits.Open {
        .init(viewer: "v:\(n % 3)", storeID: "s\(n)", at: Date(timeIntervalSince1970: Double(1_790_000_000 + n)))
    }

    static func event(_ n: Int) -> ViewerEvent {
        .openedReview(viewer: "u:\(n % 2)", commentID: "m\(n)", at: Date(timeIntervalSince1970: Double(n)))
    }

    @Test func keepsOrderAndDropsPastCapacity() {
        let buffer = SignalBuffer(capacity: 5)
        for n in 0..<3 { buffer.record(Self.open(n)) }
        for n in 0..<4 { buffer.record(Self.event(n)) }
        #expect(buffer.take() == .init(opens: (0..<3).map(Self.open), events: (0..<2).map(Self.event)))
        #expect(buffer.take().isEmpty)
    }

    @Test func oneViewerPastItsShareIsDropped() {
        let buffer = SignalBuffer(capacity: 100, perViewer: 3)
        for n in 0..<5 { buffer.record(StoreVisits.Open(viewer: "v:bot", storeID: "s\(n)", at: Date())) }
        buffer.record(Self.event(0))
        #expect(buffer.count == 4)
        _ = buffer.take()
        buffer.record(StoreVisits.Open(viewer: "v:bot", storeID: "s9", at: Date()))
        #expect(buffer.count == 1, "a new flush interval, a new share")
    }

    @Test func aRestoredBatchGoesBackInFront() {
        let buffer = SignalBuffer(capacity: 10)
        for n in 0..<3 { buffer.record(Self.open(n)) }
        buffer.record(Self.event(0))
        let batch = buffer.take()
        for n in 3..<5 { buffer.record(Self.open(n)) }
        buffer.record(Self.event(1))
        buffer.restore(batch)
        #expect(buffer.take() == .init(opens: (0..<5).map(Self.open), events: (0..<2).map(Self.event)))
    }

    @Test func aFlushWritesEverythingOnceAndAFailedOneKeepsIt() async throws {
        try await TestDatabase.withFresh { database, _ in
            try await StoreVisitsBatchTests.stores(database)
            let buffer = SignalBuffer()
            let flusher = SignalFlusher(
                buffer: buffer, queue: SignalQueue(database: database, halfLife: 86_400), interval: .seconds(3600),
                clock: { Date() }, logger: TestDatabase.logger)
            let at = Date(timeIntervalSince1970: 1_790_000_000)
            for (n, store) in ["s01", "s02", "s03"].enumerated() {
                buffer.record(StoreVisits.Open(viewer: "v:a", storeID: store, at: at + Double(n)))
            }
            buffer.record(.signal(viewer: "v:a", about: .store("s01"), weight: 3, at: at))
            // MUT
            try await flusher.flush()
            try await flusher.flush()
            // validate: three opens, three pairs, each counted once in both directions; the signal once; the queue empty.
            let counts = try await database.query(
                """
                SELECT (SELECT count(*) FROM viewer_store_opens)::int, (SELECT count(*) FROM viewer_covisits)::int,
                       (SELECT sum(viewers) FROM store_covisits)::int, (SELECT sum(score) FROM viewer_interests),
                       (SELECT count(*) FROM viewer_event_queue)::int
                """)[0].decode((Int, Int, Int, Double, Int).self)
            #expect(counts == (3, 3, 6, 3, 0))
            #expect(buffer.count == 0)
            // A viewer key the queue refuses: the batch stays pending.
            buffer.record(StoreVisits.Open(viewer: "bad", storeID: "s01", at: at))
            await #expect(throws: (any Error).self) { try await flusher.flush() }
            #expect(buffer.count == 1)
        }
    }
}
