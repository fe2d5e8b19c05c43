import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Deletes what no longer serves anyone: expired and revoked sessions, visitors' click interest idle for 90 days,
/// uploads never attached to a store, review or avatar within 24 hours (and their bytes, once no upload names
/// them), and rate-limit rows that have run out. One run at a time per database (an advisory lock); `serve` runs
/// it in the background and `chidian housekeeping` on demand.
public enum Housekeeping {
    public struct Report: Sendable, Equatable, CustomStringConvertible {
        public var sessions = 0
        public var visitorInterests = 0
        public var visitorOpens = 0
        public var uploads = 0
        public var imageBlobs = 0
        public var rateBuckets = 0
        public var rateTokens = 0
        /// Store and platform days over everywhere whose distinct counts were fixed and raw hashes dropped.
        public var insightDays = 0
        public var insightHashes = 0
        /// Popular times' hours older than the 8 weeks they are read over.
        public var popularHours = 0

        public var description: String {
            """
            sessions (expired or revoked): \(sessions)
            visitor interests idle 90 days: \(visitorInterests) (opens: \(visitorOpens))
            uploads never attached in 24 hours: \(uploads) (image bytes no longer named: \(imageBlobs))
            rate-limit rows run out: \(rateBuckets + rateTokens)
            insight days closed: \(insightDays) (visitor hashes dropped: \(insightHashes))
            popular-times hours past 8 weeks: \(popularHours)
            """
        }
    }

    package static let lock = 7_041_980

    /// Runs once, or returns nil when another run holds the lock.
    public static func run(_ database: Database) async throws -> Report? {
        try await database.transaction { connection in
            let logger = database.logger
            // The serving pool's per-statement deadline is for requests, not for this.
            try await connection.rows("SET LOCAL statement_timeout = 0", logger: logger)
            guard
                try await connection.rows("SELECT pg_try_advisory_xact_lock(\(lock))", logger: logger)
                    .first?.decode(Bool.self) == true
            else { return nil }
            func count(_ query: PostgresQuery) async throws -> Int {
                try await connection.rows(query, logger: logger).first?.decode(Int.self) ?? 0
            }
            var report = Report()
            report.sessions = try await count(
                """
                WITH gone AS (DELETE FROM sessions WHERE expires_at < now() OR revoked_at IS NOT NULL RETURNING 1)
                SELECT count(*)::int FROM gone
                """)
            report.visitorInterests = try await count(
                """
                WITH gone AS (DELETE FROM viewer_interests
                              WHERE viewer LIKE 'v:%' AND score_at < now() - interval '90 days' RETURNING 1)
                SELECT count(*)::int FROM gone
                """)
            report.visitorOpens = try await count(
                """
                WITH gone AS (DELETE FROM viewer_opens
                              WHERE viewer LIKE 'v:%' AND opened_at < now() - interval '90 days' RETURNING 1),
                    stores AS (DELETE FROM viewer_store_opens
                              WHERE viewer LIKE 'v:%' AND opened_at < now() - interval '90 days' RETURNING 1),
                    pairs AS (DELETE FROM viewer_covisits
                              WHERE viewer LIKE 'v:%' AND at < now() - interval '90 days' RETURNING 1),
                    explored AS (DELETE FROM viewer_explore
                              WHERE viewer LIKE 'v:%' AND updated_at < now() - interval '90 days' RETURNING 1)
                SELECT (SELECT count(*) FROM gone) + (SELECT count(*) FROM stores) + (SELECT count(*) FROM pairs)
                    + (SELECT count(*) FROM explored)::int
                """)
            let hashes = try await connection.rows(
                """
                DELETE FROM images i
                WHERE i.created_at < now() - interval '24 hours'
                  AND NOT EXISTS (SELECT 1 FROM store_images s WHERE s.image_id = i.id)
                  AND NOT EXISTS (SELECT 1 FROM comment_images c WHERE c.image_id = i.id)
                  AND NOT EXISTS (SELECT 1 FROM users u WHERE u.avatar_image_id = i.id)
                RETURNING encode(sha256, 'hex')
                """, logger: logger
            ).map { try $0.decode(String.self) }
            report.uploads = hashes.count
            report.imageBlobs = try await deleteBlobs(hashes, on: connection, logger: logger)
            report.rateBuckets = try await count(
                "WITH gone AS (DELETE FROM rate_buckets WHERE expires_at < now() RETURNING 1) SELECT count(*)::int FROM gone"
            )
            report.rateTokens = try await count(
                "WITH gone AS (DELETE FROM rate_tokens WHERE full_at < now() RETURNING 1) SELECT count(*)::int FROM gone"
            )
            (report.insightDays, report.insightHashes) = try await closeInsightDays(connection, logger: logger)
            report.popularHours = try await count(
                """
                WITH gone AS (DELETE FROM store_hours WHERE day < (now() AT TIME ZONE 'UTC')::date - \(PopularTimes.days + 2)::int
                              RETURNING 1)
                SELECT count(*)::int FROM gone
                """)
            return report
        }
    }

    /// The bytes of deleted uploads (hex SHA-256) that no remaining upload names; how many went.
    static func deleteBlobs(_ hashes: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> Int
    {
        guard !hashes.isEmpty else { return 0 }
        return try await connection.rows(
            """
            WITH gone AS (
                DELETE FROM image_blobs b WHERE b.sha256 IN (SELECT decode(h, 'hex') FROM unnest(\(hashes)::text[]) h)
                    AND NOT EXISTS (SELECT 1 FROM images i WHERE i.sha256 = b.sha256)
                RETURNING 1)
            SELECT count(*)::int FROM gone
            """, logger: logger
        ).first?.decode(Int.self) ?? 0
    }

    /// Days over in every time zone (two UTC dates back) keep their distinct counts and drop their hashes.
    static func closeInsightDays(_ connection: PostgresConnection, logger: Logger) async throws -> (Int, Int) {
        let (storeK, platformK) = (InsightFlusher.storeK, InsightFlusher.platformK)
        let stores = try await connection.rows(
            """
            WITH closed AS (
                UPDATE store_days d SET visitors = CASE WHEN d.visitor_cut IS NULL THEN d.visitor_rows
                    ELSE sketch_estimate(d.visitor_rows, d.visitor_cut,
                        (SELECT x.h FROM store_day_visitors x WHERE x.store_id = d.store_id AND x.day = d.day
                         ORDER BY x.h OFFSET \(storeK - 1) LIMIT 1), \(storeK)) END
                WHERE d.visitors IS NULL AND d.day < (now() AT TIME ZONE 'UTC')::date - 1
                RETURNING d.store_id, d.day
            ), gone AS (
                DELETE FROM store_day_visitors v USING closed c WHERE (v.store_id, v.day) = (c.store_id, c.day)
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM closed)::int, (SELECT count(*) FROM gone)::int
            """, logger: logger
        ).first!.decodeAll((Int, Int).self)
        let platform = try await connection.rows(
            """
            WITH closed AS (
                UPDATE platform_days d SET total = CASE WHEN d.cut IS NULL THEN d.rows_held
                    ELSE sketch_estimate(d.rows_held, d.cut,
                        (SELECT x.h FROM platform_day_viewers x WHERE x.day = d.day AND x.signed_in = d.signed_in
                         ORDER BY x.h OFFSET \(platformK - 1) LIMIT 1), \(platformK)) END
                WHERE d.total IS NULL AND d.day < (now() AT TIME ZONE 'UTC')::date - 1
                RETURNING d.day, d.signed_in
            ), gone AS (
                DELETE FROM platform_day_viewers v USING closed c WHERE (v.day, v.signed_in) = (c.day, c.signed_in)
                RETURNING 1
            )
            SELECT (SELECT count(*) FROM closed)::int, (SELECT count(*) FROM gone)::int
            """, logger: logger
        ).first!.decodeAll((Int, Int).self)
        return (stores.0 + platform.0, stores.1 + platform.1)
    }
}

/// Housekeeping in `serve`: a run a minute after start, then every `interval`; whichever server holds the lock
/// does the work, the others skip.
public struct HousekeepingService: Service {
    package let database: Database
    package let interval: Duration

    public init(database: Database, interval: Duration) {
        self.database = database
        self.interval = interval
    }

    public func run() async throws {
        // Shutdown cancels the sleep: that is the normal end, not a failure (which would fail the whole server).
        try? await cancelWhenGracefulShutdown {
            try await Task.sleep(for: min(interval, .seconds(60)))
            while !Task.isCancelled {
                do {
                    if let report = try await Housekeeping.run(database) {
                        database.logger.info(
                            "housekeeping",
                            metadata: [
                                "sessions": "\(report.sessions)", "visitorInterests": "\(report.visitorInterests)",
                                "uploads": "\(report.uploads)", "rateRows": "\(report.rateBuckets + report.rateTokens)",
                            ])
                    }
                } catch is CancellationError {
                    return
                } catch {
                    database.logger.warning(
                        "housekeeping failed", metadata: DatabaseErrors.metadata(any: error))
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
