import Foundation
import Logging
import PostgresNIO

/// Fills in the pinyin the database cannot compute. Triggers queue every new store, category and dish name in
/// `search_pinyin` with `ready = false`; this computes its spellings and keys and marks it ready, in one
/// transaction per batch so a reader never sees a ready name without its keys. Idempotent and safe to run
/// concurrently: the pinyin of a name never changes.
public enum PinyinIndex {
    static let batchSize = 1000

    /// Processes every queued name; returns how many. Cheap when nothing is queued (one indexed probe).
    @discardableResult
    public static func refresh(database: Database) async throws -> Int {
        let logger = database.logger
        return try await database.withConnection { connection in
            try await refresh(on: connection, logger: logger, inTransaction: false)
        }
    }

    /// As `refresh(database:)` on a connection; `inTransaction` when the caller already holds a transaction
    /// (the seed import), otherwise each batch commits on its own.
    @discardableResult
    public static func refresh(on connection: PostgresConnection, logger: Logger, inTransaction: Bool) async throws
        -> Int
    {
        var done = 0
        while true {
            let sources = try await connection.rows(
                "SELECT source FROM search_pinyin WHERE NOT ready ORDER BY source LIMIT \(batchSize)", logger: logger
            ).map { try $0.decodeAll(String.self) }
            guard !sources.isEmpty else { return done }
            if inTransaction {
                try await store(sources, on: connection, logger: logger)
            } else {
                try await connection.transaction(logger: logger) {
                    try await store(sources, on: connection, logger: logger)
                }
            }
            done += sources.count
            if sources.count < batchSize { return done }
        }
    }

    private static func store(_ sources: [String], on connection: PostgresConnection, logger: Logger) async throws {
        var keySources: [String] = []
        var keys: [String] = []
        var syllables: [String] = []
        var initials: [String] = []
        for source in sources {
            let spelled = Pinyin.spellings(source)
            syllables.append(spelled.syllables)
            initials.append(spelled.initials)
            for key in Pinyin.keys(source).sorted() {
                keySources.append(source)
                keys.append(key)
            }
        }
        try await connection.rows(
            """
            INSERT INTO search_pinyin_keys (source, key)
            SELECT k.source, k.key FROM unnest(\(keySources)::text[], \(keys)::text[]) AS k (source, key)
            JOIN search_pinyin p ON p.source = k.source
            ON CONFLICT DO NOTHING
            """, logger: logger)
        try await connection.rows(
            """
            UPDATE search_pinyin p SET ready = true, syllables = x.syllables, initials = x.initials
            FROM unnest(\(sources)::text[], \(syllables)::text[], \(initials)::text[]) AS x (source, syllables, initials)
            WHERE p.source = x.source AND NOT p.ready
            """, logger: logger)
    }
}
