import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// Signals learnt beside the requests leave exactly what the requests writing them one by one leave (issue #44):
/// the same random sequence of review opens, interest signals, feed showings, visitors signing in, resets and store
/// opens, written event by
/// event in time order in one fresh database, and in another spread at random over two servers' buffers, queued
/// and drained at random moments (each drain taking only what is older than everything still in a buffer, as
/// the watermark does in `serve`).
@Suite struct SignalQueueTests {
    static let halfLife = 3 * 86_400.0

    /// Three categories, 12 live stores and 1 archived, two reviews per store (one hidden), the same ids everywhere.
    static func world(_ database: Database) async throws {
        try await database.query(
            """
            WITH c AS (
                INSERT INTO categories (id, name) VALUES ('k1', '火锅'), ('k2', '川菜'), ('k3', '甜品') RETURNING id
            ), m AS (
                INSERT INTO users (id, name, password_hash, role) VALUES ('boss', 'boss', '$2b$04$fixture', 'manager'),
                    ('1', 'one', '$2b$04$fixture', 'user'), ('2', 'two', '$2b$04$fixture', 'user')
                RETURNING id
            )
            INSERT INTO stores (id, name, category_id, manager_id, archived_at)
            SELECT 's' || lpad(n::text, 2, '0'), 'store ' || n, 'k' || (n % 3 + 1), 'boss',
                CASE WHEN n = 13 THEN now() END
            FROM generate_series(1, 13) AS n
            """)
        try await database.query(
            """
            INSERT INTO comments (id, kind, store_id, author_id, rating, body, hidden_at)
            SELECT 'r' || s.id || '-' || k, 'review', s.id, 'boss', 4, 'good', CASE WHEN k = 2 THEN now() END
            FROM stores s, generate_series(1, 2) AS k
            """)
    }

    /// Every table the events write, as text rows in key order (everyone's exploration counts summed over shards).
    static func tables(_ database: Database) async throws -> [String] {
        var all: [String] = []
        for query: PostgresQuery in [
            "SELECT concat_ws(' ', viewer, category_id, score, score_at, clicks) FROM viewer_interests ORDER BY 1",
            "SELECT concat_ws(' ', viewer, comment_id, opened_at) FROM viewer_opens ORDER BY 1",
            """
            SELECT concat_ws(' ', viewer, category_id, shown, clicked, exploring, pending_at, updated_at)
            FROM viewer_explore ORDER BY 1
            """,
            """
            SELECT concat_ws(' ', category_id, sum(shown), sum(clicked)) FROM category_explore
            GROUP BY category_id ORDER BY 1
            """,
            "SELECT concat_ws(' ', viewer, store_id, opened_at) FROM viewer_store_opens ORDER BY 1",
            "SELECT concat_ws(' ', viewer, a, b, at) FROM viewer_covisits ORDER BY 1",
            "SELECT concat_ws(' ', store_id, other_id, viewers) FROM store_covisits ORDER BY 1",
        ] {
            all += try await database.query(query).map { try $0.decode(String.self) }
        }
        return all
    }

    enum Step {
        case event(ViewerEvent)
        case visit(StoreVisits.Open)

        var at: Date {
            switch self {
            case .event(.openedReview(_, _, let at)), .event(.signal(_, _, _, let at)),
                .event(.shown(_, _, _, _, let at)), .event(.page(_, _, let at)), .event(.merged(_, _, let at)),
                .event(.reset(_, let at)):
                at
            case .visit(let open): open.at
            }
        }
    }

    static func steps(seed: UInt64) -> [Step] {
        var generator = SeededRandom(seed: seed)
        var at = Date(timeIntervalSince1970: 1_790_000_000)
        let viewers = ["v:0", "v:1", "v:2", "u:1", "u:2"]
        let categories = ["k1", "k2", "k3", "k9"]
        return (0..<500).map { _ -> Step in
            at += [0.5, 4, 11, 600, 7200, 90_000].randomElement(using: &generator)!
            let viewer = viewers.randomElement(using: &generator)!
            let store = "s" + String(format: "%02d", Int.random(in: 1...13, using: &generator))
            switch Int.random(in: 0..<50, using: &generator) {
            case 0:
                let visitor = ["v:0", "v:1", "v:2"].randomElement(using: &generator)!
                return .event(
                    .merged(visitor: visitor, into: ["u:1", "u:2"].randomElement(using: &generator)!, at: at))
            case 1:
                return .event(.reset(viewer: viewer, at: at))
            case 2..<15:
                return .event(
                    .openedReview(
                        viewer: viewer, commentID: "r\(store)-\(Int.random(in: 1...2, using: &generator))", at: at))
            case 15..<25:
                let weight = [-6, -3, 0, 1, 3, 6].randomElement(using: &generator)!
                let subject: InterestRepository.Subject =
                    Bool.random(using: &generator) ? .store(store) : .comment("r\(store)-1")
                return .event(.signal(viewer: viewer, about: subject, weight: Double(weight), at: at))
            case 25..<30:
                let showings = categories.filter { _ in Bool.random(using: &generator) }.map {
                    Showing(
                        category: $0, weight: Double.random(in: 0.2...4, using: &generator),
                        exploring: Bool.random(using: &generator))
                }
                return .event(.page(viewer: viewer, showings: showings, at: at))
            case 30..<35:
                let own = Bool.random(using: &generator) ? categories.randomElement(using: &generator) : nil
                let explored = categories.filter { _ in Bool.random(using: &generator) }
                return .event(
                    .shown(
                        viewer: viewer, own: own, places: Int.random(in: 5...9, using: &generator), explored: explored,
                        at: at))
            default:
                return .visit(.init(viewer: viewer, storeID: store, at: at))
            }
        }
    }

    @Test(arguments: [1, 2, 3])
    func twoServersLeaveWhatRequestsOneByOneLeave(seed: UInt64) async throws {
        let steps = Self.steps(seed: seed)
        var generator = SeededRandom(seed: seed + 100)
        let servers = steps.map { _ in Int.random(in: 0..<2, using: &generator) }
        let flushes = steps.map { _ in Int.random(in: 0..<12, using: &generator) }
        // MUT: one by one, in time order.
        let expected = try await TestDatabase.withFresh { database, _ in
            try await Self.world(database)
            let interests = InterestRepository(database: database, halfLife: Self.halfLife)
            let visits = StoreVisits(database: database)
            for step in steps {
                switch step {
                case .event(let event): try await interests.apply([event])
                case .visit(let open): try await visits.record(viewer: open.viewer, storeID: open.storeID, at: open.at)
                }
            }
            return try await Self.tables(database)
        }
        // MUT: two servers' buffers, queued and drained at random.
        let written = try await TestDatabase.withFresh { database, _ in
            try await Self.world(database)
            let queue = SignalQueue(database: database, halfLife: Self.halfLife)
            let buffers = [SignalBuffer(), SignalBuffer()]
            var held: [[Date]] = [[], []]
            for (n, step) in steps.enumerated() {
                let buffer = buffers[servers[n]]
                switch step {
                case .event(let event): buffer.record(event)
                case .visit(let open): buffer.record(open)
                }
                held[servers[n]].append(step.at)
                if flushes[n] < 2 {
                    // One server queues its batch, then drains what nobody still holds.
                    let server = flushes[n]
                    try await queue.push(buffers[server].take())
                    held[server] = []
                    let cutoff = (held[0] + held[1]).min() ?? .distantFuture
                    try await queue.drain(before: cutoff)
                }
            }
            for buffer in buffers { try await queue.push(buffer.take()) }
            try await queue.drain(before: .distantFuture)
            let left = try await database.query("SELECT count(*)::int FROM viewer_event_queue")[0].decode(Int.self)
            #expect(left == 0)
            return try await Self.tables(database)
        }
        // validate
        #expect(expected.count > 100)
        #expect(written.count == expected.count)
        let difference = zip(written, expected).first { $0 != $1 }
        #expect(difference == nil, "first difference (two servers, one by one): \(String(describing: difference))")
    }

    /// A viewer reloading the feed counts one look per window of the clock (sql/041), whichever server took each page
    /// and though a server drops its own repeats before queueing them.
    @Test func aViewerLooksOncePerWindowHoweverManyPagesAndServers() async throws {
        // setup: 60 pages of one viewer half a second apart from 3 s into a window (four windows), each exploring
        // k2, with a review opened now and then
        let start = Date(timeIntervalSince1970: 1_790_000_003)
        let steps: [ViewerEvent] = (0..<60).flatMap { n -> [ViewerEvent] in
            let at = start.addingTimeInterval(Double(n) / 2)
            let page = ViewerEvent.page(
                viewer: "v:0",
                showings: [
                    Showing(category: "k1", weight: 1, exploring: false),
                    Showing(category: "k2", weight: 1, exploring: true),
                ], at: at)
            return n % 7 == 3 ? [page, .openedReview(viewer: "v:0", commentID: "rs02-1", at: at)] : [page]
        }
        func explored(_ database: Database) async throws -> Int {
            try await database.query(
                "SELECT coalesce(sum(shown), 0)::int FROM category_explore WHERE category_id = 'k2'")[0].decode(
                    Int.self)
        }
        // MUT: one by one
        let (expected, oneByOne) = try await TestDatabase.withFresh { database, _ in
            try await Self.world(database)
            let interests = InterestRepository(database: database, halfLife: Self.halfLife)
            for event in steps { try await interests.apply([event]) }
            return (try await Self.tables(database), try await explored(database))
        }
        // MUT: alternately on two servers, each queueing every fifth event
        let (written, batched) = try await TestDatabase.withFresh { database, _ in
            try await Self.world(database)
            let queue = SignalQueue(database: database, halfLife: Self.halfLife)
            let buffers = [SignalBuffer(), SignalBuffer()]
            for (n, event) in steps.enumerated() {
                buffers[n % 2].record(event)
                if n % 5 == 4 {
                    for buffer in buffers { try await queue.push(buffer.take()) }
                    try await queue.drain(before: .distantFuture)
                }
            }
            for buffer in buffers { try await queue.push(buffer.take()) }
            try await queue.drain(before: .distantFuture)
            return (try await Self.tables(database), try await explored(database))
        }
        let repeats = SignalBuffer()
        for event in steps.prefix(10) { repeats.record(event) }
        // validate
        #expect(repeats.count == 2, "one page of the window and the review it opened")
        #expect(oneByOne == 4)
        #expect(batched == 4)
        #expect(written == expected)
    }
}
