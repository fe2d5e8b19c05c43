import Foundation
import PostgresNIO

/// The dish vocabulary search matches (`chidian dish add|list`). `DishCatalog` is its source: every `migrate`
/// writes the catalogue's names the table lacks (`syncCatalog`), and `dish add` adds more. A name is counted over
/// the existing reviews when it arrives, and from then on the review triggers keep its counts.
public struct DishVocabulary: Sendable {
    package let database: Database

    public static let maxNameLength = 32

    public init(database: Database) {
        self.database = database
    }

    /// A dish with its pinyin and how many stores and reviews mention it (archived stores included).
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var syllables: String
        public var initials: String
        public var stores: Int
        public var reviews: Int
    }

    /// Adds a dish (unique ignoring case) and counts its mentions; failures are `SearchError`s.
    public func add(name raw: String) async throws -> Entry {
        let name = try Self.validName(raw)
        let logger = database.logger
        return try await database.transaction { connection in
            let inserted = try await connection.rows(
                "INSERT INTO search_dishes (name) VALUES (\(name)) ON CONFLICT (lname) DO NOTHING RETURNING id::bigint",
                logger: logger)
            guard let id = try inserted.first?.decodeAll(Int.self) else {
                throw SearchError.dishExists(name)
            }
            try await PinyinIndex.refresh(on: connection, logger: logger, inTransaction: true)
            try await connection.rows("SELECT search_count_dish(\(id)::int)", logger: logger)
            // The row was inserted in this transaction, so it is there.
            return try await Self.entries(id: id, on: connection, logger: logger)[0]
        }
    }

    /// Adds the catalogue's names the table lacks and counts them over the reviews; names added with `dish add` stay
    /// (an admin's additions are data, not code). Idempotent: with nothing missing it is one statement.
    @Sendable static func syncCatalog(on connection: PostgresConnection, logger: Logger) async throws {
        let added = try await connection.rows(
            """
            INSERT INTO search_dishes (name) SELECT unnest(\(DishCatalog.names)::text[])
            ON CONFLICT (lname) DO NOTHING RETURNING id::bigint
            """, logger: logger
        ).map { try $0.decode(Int.self) }
        guard !added.isEmpty else { return }
        try await PinyinIndex.refresh(on: connection, logger: logger, inTransaction: true)
        for id in added { try await connection.rows("SELECT search_count_dish(\(id)::int)", logger: logger) }
        logger.info("dish catalogue synced", metadata: ["added": .stringConvertible(added.count)])
    }

    /// Every dish, in the order they were added.
    public func list() async throws -> [Entry] {
        try await PinyinIndex.refresh(database: database)
        let logger = database.logger
        return try await database.withConnection { connection in
            try await Self.entries(id: nil, on: connection, logger: logger)
        }
    }

    private static func entries(id: Int?, on connection: PostgresConnection, logger: Logger) async throws -> [Entry] {
        try await connection.rows(
            """
            SELECT d.name, coalesce(p.syllables, ''), coalesce(p.initials, ''), m.stores, m.reviews
            FROM search_dishes d
            LEFT JOIN search_pinyin p ON p.source = d.name COLLATE "C" AND p.ready
            CROSS JOIN LATERAL (
                SELECT count(*)::bigint AS stores, coalesce(sum(r.review_count), 0)::bigint AS reviews
                FROM search_review_grams r WHERE char_length(d.lname) <= 2 AND r.gram = d.lname
                UNION ALL
                SELECT count(*)::bigint, coalesce(sum(x.review_count), 0)::bigint
                FROM search_dish_stores x WHERE char_length(d.lname) > 2 AND x.dish_id = d.id
                ORDER BY 1 DESC LIMIT 1
            ) m
            WHERE \(id)::int IS NULL OR d.id = \(id)::int
            ORDER BY d.id
            """, logger: logger
        ).map { row in
            let (name, syllables, initials, stores, reviews) = try row.decodeAll(
                (String, String, String, Int, Int).self)
            return Entry(name: name, syllables: syllables, initials: initials, stores: stores, reviews: reviews)
        }
    }

    /// Trimmed, not blank, at most 32 characters, no control characters.
    package static func validName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw SearchError.invalidDishName("The dish name must not be blank.") }
        guard TextLimit.fits(name, maxNameLength) else {
            throw SearchError.invalidDishName("The dish name must be at most \(maxNameLength) characters.")
        }
        guard !StoreRules.containsControl(name, allowingLineBreaks: false) else {
            throw SearchError.invalidDishName("The dish name must not contain control characters.")
        }
        return name
    }
}

/// Search data that bulk writes must bring up to date themselves.
package enum SearchIndex {
    /// After the seed import merged rows with the comments triggers skipped: fills in the pinyin of new names and
    /// recounts the review summaries of every store the import touched, inside the import's transaction. The
    /// rebuild comes last: a bulk one ends by swapping tables, and searches wait from the swap until the commit.
    package static func refreshAfterImport(on connection: PostgresConnection, logger: Logger) async throws {
        try await PinyinIndex.refresh(on: connection, logger: logger, inTransaction: true)
        try await SearchBulkIndexer.rebuild(
            storesSQL: "SELECT id FROM seed_stores UNION SELECT DISTINCT store_id FROM seed_comments",
            on: connection, logger: logger)
    }
}
