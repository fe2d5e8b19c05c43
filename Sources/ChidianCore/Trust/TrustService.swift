import Foundation
import Logging
import PostgresNIO

/// Judges queued reviews beside the requests that posted them (docs/TRUST.md). Each pass takes the due reviews
/// (SKIP LOCKED: any number of servers share the queue), gathers the evidence of the reviews they touch, judges
/// them together (a ring is judged as a group, so an earlier verdict changes when the ring grows) and writes the
/// verdicts that changed through `trust_machine_verdict`, which leaves an admin's verdict standing; the aggregates
/// follow in the same transaction. With `enabled` false (`TRUST=off`) every review is judged recommended.
package struct TrustService: Sendable {
    package let database: Database
    package var judge: TrustJudge
    package let enabled: Bool

    package init(database: Database, judge: TrustJudge = TrustJudge(), enabled: Bool) {
        self.database = database
        self.judge = judge
        self.enabled = enabled
    }

    package struct Pass: Sendable, Equatable {
        /// Due reviews taken from the queue.
        package var due = 0
        /// Reviews judged with them (the due ones included).
        package var judged = 0
        /// Verdicts that changed (recommended or not).
        package var changed = 0
    }

    /// A pass's own deadline for each of its statements. A request's (2 s by default) is for a person waiting; a
    /// pass reads the evidence of up to 2,000 reviews, and on a busy machine that outlasted it: in the soak's mix
    /// of 2026-11-30 every pass was cancelled (117 in eight minutes), so nothing was judged (docs/TRUST.md).
    package static let statementDeadline: Duration = .seconds(30)

    /// How long a pass holds the reviews it took: a server stopped mid-pass leaves them due again after it.
    static let lease = 300

    /// Verdicts written a transaction at a time: their rows (and, when a verdict turns, the store's totals and
    /// search summaries) stay locked only for a chunk, not for the pass, so posts and likes on those stores wait
    /// milliseconds. One transaction for the whole pass held them while its evidence was read, past a request's
    /// deadline under load.
    static let chunk = 100

    /// Judges up to `limit` reviews due by `now` (the database's clock when nil), in three steps: takes them (a
    /// lease: their due time moved ahead, so no other pass takes them, and they stay queued until judged), reads
    /// their evidence and judges, and writes the verdicts that changed a chunk at a time before letting them go.
    /// Every statement runs under the pass's own deadline.
    package func judgeDue(limit: Int = 200, now: Date? = nil) async throws -> Pass {
        try await StatementDeadlines.$route.withValue(Self.statementDeadline) {
            try await pass(limit: limit, now: now)
        }
    }

    private func pass(limit: Int, now: Date?) async throws -> Pass {
        let logger = database.logger
        let judge = self.judge
        let enabled = self.enabled
        let database = self.database.with(timeout: .seconds(60))
        let taken = try await database.query(
            """
            UPDATE trust_queue q SET due_at = now() + make_interval(secs => \(Self.lease))
            WHERE q.comment_id IN (
                SELECT comment_id FROM trust_queue WHERE due_at <= coalesce(\(now)::timestamptz, now())
                ORDER BY due_at, comment_id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ) RETURNING q.comment_id, (extract(epoch FROM q.due_at) * 1000000)::int8
            """
        ).map { try $0.decode((String, Int64).self) }
        // The lease as microseconds, compared exactly: an edit that queues a review again sets another due time.
        guard let lease = taken.first?.1 else { return Pass() }
        let due = taken.map(\.0).sorted()
        var pass = Pass(due: due.count)
        do {
            let (verdicts, current) = try await database.transaction { connection in
                guard enabled else {
                    let all = due.map { TrustJudge.Verdict(commentID: $0, recommended: true, score: 0, signals: []) }
                    return (all, [String: Current]())
                }
                try await Self.storeBands(of: due, on: connection, logger: logger)
                let related = try await connection.rows(TrustEvidenceStatements.related(due), logger: logger)
                    .map { try $0.decode(String.self) }
                let set = Array(Set(related).union(due)).sorted()
                let (evidence, current) = try await Self.evidence(set, on: connection, logger: logger)
                return (judge.judge(evidence), current)
            }
            pass.judged = verdicts.count
            let changed = Self.changed(verdicts, current: current)
            for start in stride(from: 0, to: changed.count, by: Self.chunk) {
                let part = Array(changed[start..<min(start + Self.chunk, changed.count)])
                pass.changed += try await database.transaction { connection in
                    try await Self.write(part, on: connection, logger: logger)
                }
            }
            // Judged: gone from the queue, unless an edit queued one again meanwhile (its due time is not the lease).
            try await database.query(
                """
                DELETE FROM trust_queue
                WHERE comment_id = ANY(\(due)::text[]) AND (extract(epoch FROM due_at) * 1000000)::int8 = \(lease)
                """)
        } catch {
            // Due again at once for the next pass (best effort: a server that stopped waits out the lease).
            _ = try? await database.query(
                """
                UPDATE trust_queue SET due_at = now()
                WHERE comment_id = ANY(\(due)::text[]) AND (extract(epoch FROM due_at) * 1000000)::int8 = \(lease)
                """)
            throw error
        }
        return pass
    }

    /// Judges everything due, pass after pass (the seed's import, tests); returns the total.
    package func judgeAll(now: Date? = nil, progress: (@Sendable (Int) -> Void)? = nil) async throws -> Pass {
        var total = Pass()
        while true {
            let pass = try await judgeDue(limit: 500, now: now)
            guard pass.due > 0 else { return total }
            total.due += pass.due
            total.judged += pass.judged
            total.changed += pass.changed
            progress?(total.due)
        }
    }

    /// A review's verdict and score as stored, and who gave it.
    struct Current {
        var recommended: Bool
        var score: Double
        var byAdmin: Bool
    }

    /// The MinHash bands of the due reviews' texts, replacing what an earlier text had.
    static func storeBands(of ids: [String], on connection: PostgresConnection, logger: Logger) async throws {
        let rows = try await connection.rows(
            """
            SELECT id, author_id, created_at, body FROM comments WHERE id = ANY(\(ids)::text[]) AND kind = 'review'
            """, logger: logger)
        var bands: [Int64] = []
        var comments: [String] = []
        var authors: [String] = []
        var times: [Date] = []
        for row in rows {
            let (id, author, at, body) = try row.decode((String, String, Date, String).self)
            let shingles = TextShingles(body)
            // Too short to tell a copy from two people saying 好吃.
            guard shingles.pairs.count >= TrustJudge.copyMinimumPairs else { continue }
            for band in Set(shingles.bands()) {
                bands.append(band)
                comments.append(id)
                authors.append(author)
                times.append(at)
            }
        }
        try await connection.rows(
            "DELETE FROM trust_text_bands WHERE comment_id = ANY(\(ids)::text[])", logger: logger)
        try await connection.rows(
            """
            INSERT INTO trust_text_bands AS t (band, comment_id, author_id, created_at)
            SELECT DISTINCT ON (band, author) band, comment, author, at
            FROM unnest(\(bands)::int8[], \(comments)::text[], \(authors)::text[], \(times)::timestamptz[])
                AS x (band, comment, author, at)
            ORDER BY band, author, at DESC
            ON CONFLICT (band, author_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, created_at = EXCLUDED.created_at
            WHERE t.created_at <= EXCLUDED.created_at
            """, logger: logger)
    }

    static func evidence(
        _ ids: [String], on connection: PostgresConnection, logger: Logger, windowCap: Int = NewcomerWindows.cap
    ) async throws -> ([ReviewEvidence], [String: Current]) {
        var found: [ReviewEvidence] = []
        var cuts: [Date] = []
        var windows: [(day: ClosedRange<Date>, fortnight: ClosedRange<Date>)] = []
        var current: [String: Current] = [:]
        var bodies: [String: String] = [:]
        for row in try await connection.rows(TrustEvidenceStatements.evidence(ids), logger: logger) {
            let columns = try row.decode(
                (
                    String, String, String, Int, Date, Date, Bool, Int, Bool, Date, Date, Date, Date, Date, [Int64],
                    Bool, Double, String, String
                ).self)
            found.append(
                ReviewEvidence(
                    commentID: columns.0, authorID: columns.1, storeID: columns.2, rating: columns.3,
                    postedAt: columns.4, authorSince: columns.5, historyKnown: columns.6, priorActivity: columns.7,
                    openedStoreBefore: columns.8, settledMean: nil, newcomersAround: 0, origins: Set(columns.14)))
            cuts.append(columns.9)
            windows.append((columns.10...columns.11, columns.12...columns.13))
            current[columns.0] = Current(recommended: columns.15, score: columns.16, byAdmin: columns.17 == "admin")
            bodies[columns.0] = columns.18
        }
        try await NewcomerWindows.fill(&found, windows: windows, cap: windowCap, on: connection, logger: logger)
        var settled = SettledMeans()
        for row in try await connection.rows(TrustEvidenceStatements.settledRatings(ids), logger: logger) {
            let (store, at, rating) = try row.decode((String, Date, Int).self)
            settled.append(store: store, at: at, rating: rating)
        }
        for i in found.indices { found[i].settledMean = settled.mean(store: found[i].storeID, before: cuts[i]) }
        // Copied text: the most similar other author's review among the band candidates.
        var best: [String: (Double, String)] = [:]
        var shingles: [String: TextShingles] = [:]
        func of(_ id: String, _ body: String) -> TextShingles {
            if let known = shingles[id] { return known }
            let made = TextShingles(body)
            shingles[id] = made
            return made
        }
        for row in try await connection.rows(TrustEvidenceStatements.copies(ids), logger: logger) {
            let (id, otherID, otherAuthor, otherBody) = try row.decode((String, String, String, String).self)
            guard let body = bodies[id] else { continue }
            let similarity = of(id, body).similarity(to: of(otherID, otherBody))
            if similarity > best[id]?.0 ?? 0 { best[id] = (similarity, otherAuthor) }
        }
        for i in found.indices {
            if let (similarity, author) = best[found[i].commentID] {
                found[i].copiedSimilarity = similarity
                found[i].copiedFrom = author
            }
        }
        return (found, current)
    }

    /// The verdicts that differ from what is stored (an admin's verdict stands; the write checks both again).
    static func changed(_ verdicts: [TrustJudge.Verdict], current: [String: Current]) -> [TrustJudge.Verdict] {
        verdicts.filter { verdict in
            guard let now = current[verdict.commentID] else { return true }
            return !now.byAdmin && (now.recommended != verdict.recommended || abs(now.score - verdict.score) > 0.005)
        }
    }

    /// Writes verdicts that differ from what is stored, store by store (two servers' passes lock stores in the
    /// same order), and their signals. Returns how many changed recommended or not.
    static func write(_ changed: [TrustJudge.Verdict], on connection: PostgresConnection, logger: Logger) async throws
        -> Int
    {
        guard !changed.isEmpty else { return 0 }
        let ids = changed.map(\.commentID)
        let rows = try await connection.rows(
            """
            SELECT count(*) FILTER (WHERE took AND was <> recommended)::int FROM (
                SELECT v.recommended, v.was, trust_machine_verdict(v.id, v.recommended, v.score) AS took
                FROM (
                    SELECT v.id, v.recommended, v.score, c.recommended AS was
                    FROM unnest(\(ids)::text[], \(changed.map(\.recommended))::bool[],
                        \(changed.map(\.score))::float8[]) AS v (id, recommended, score)
                    JOIN comments c ON c.id = v.id
                    WHERE c.verdict_by = 'machine'
                      AND (c.recommended <> v.recommended OR abs(c.trust_score - v.score) > 0.005)
                    ORDER BY c.store_id, v.id OFFSET 0
                ) v
            ) v
            """, logger: logger)
        var kinds: [String] = []
        var details: [String] = []
        var owners: [String] = []
        for verdict in changed {
            for signal in verdict.signals {
                owners.append(verdict.commentID)
                kinds.append(signal.kind)
                details.append(String(signal.detail.prefix(2000)))
            }
        }
        try await connection.rows(
            "DELETE FROM comment_signals WHERE comment_id = ANY(\(ids)::text[])", logger: logger)
        try await connection.rows(
            """
            INSERT INTO comment_signals (comment_id, kind, detail)
            SELECT * FROM unnest(\(owners)::text[], \(kinds)::text[], \(details)::text[])
            ON CONFLICT (comment_id, kind) DO UPDATE SET detail = EXCLUDED.detail
            """, logger: logger)
        return try rows.first?.decode(Int.self) ?? 0
    }
}
