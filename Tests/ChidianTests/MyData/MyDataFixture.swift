import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// How a column names a user: by id, as a viewer key `u:<id>`, or inside a rate-limit key.
enum UserReference: Sendable {
    case id, viewer, rateKey
}

/// Every column of the schema that names a user, found from the catalogue (so a new table is found without
/// anyone listing it), and what the export and the deletion must do with each.
enum UserColumns {
    /// Table and column → the `data.json` section that must hold its rows for the user.
    ///
    /// A table that comes to name users (a foreign key to users, a `viewer` column, a `…_id` column named for a
    /// person) and is not here fails `everyColumnNamingAUserIsCovered`: add its export section, its row here,
    /// and rows for it in `MyDataWorld.make`.
    static let sections: [String: String] = [
        "users.id": "profile",
        "sessions.user_id": "sessions",
        "comments.author_id": "reviews",
        "store_raters.author_id": "counted_ratings",
        "comment_replies.author_id": "replies_written",
        "comment_likes.user_id": "likes",
        "favorites.user_id": "favorites",
        "reports.reporter_id": "reports",
        "follows.follower_id": "following",
        "follows.followee_id": "followers",
        "notifications.user_id": "notifications",
        "notification_counters.user_id": "notification_counter",
        "notification_actors.user_id": "notified_others",
        "stores.manager_id": "stores_managed",
        "promotions.buyer_id": "promotions",
        "coupon_claims.user_id": "coupon_claims",
        "coupon_holders.user_id": "coupon_holdings",
        "moderation_log.admin_id": "moderation_actions",
        "images.uploader_id": "images",
        "viewer_interests.viewer": "interests",
        "viewer_opens.viewer": "opened_reviews",
        "viewer_store_opens.viewer": "opened_stores",
        "viewer_covisits.viewer": "store_pairs",
        "viewer_explore.viewer": "exploration",
        "viewer_event_queue.viewer": "signals_pending",
        "trust_origins.user_id": "trust_origins",
        "trust_text_bands.author_id": "trust_text_bands",
        "rate_tokens.key": "rate_limits",
        "rate_buckets.key": "rate_limits",
    ]

    /// `table.column` of every column that names a user, with how.
    static func find(_ database: Database) async throws -> [String: UserReference] {
        let rows = try await database.query(
            """
            SELECT c.conrelid::regclass::text || '.' || a.attname, 'id'
            FROM pg_constraint c
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
            WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
            UNION
            SELECT col.table_name || '.' || col.column_name,
                   CASE WHEN col.column_name = 'viewer' THEN 'viewer' ELSE 'id' END
            FROM information_schema.columns col
            JOIN information_schema.tables t ON t.table_schema = col.table_schema AND t.table_name = col.table_name
            WHERE col.table_schema = 'public' AND t.table_type = 'BASE TABLE'
              AND (col.column_name = 'viewer'
                   OR col.column_name ~ '(user|author|admin|manager|reporter|buyer|uploader|follower|followee|actor|owner|recipient|member)_id$')
            UNION
            SELECT 'users.id', 'id'
            UNION
            SELECT t || '.key', 'rateKey' FROM unnest(ARRAY['rate_tokens', 'rate_buckets']) t
            """)
        var found: [String: UserReference] = [:]
        for row in rows {
            let (column, how) = try row.decode((String, String).self)
            found[column] = how == "viewer" ? .viewer : how == "rateKey" ? .rateKey : .id
        }
        return found
    }

    /// How many rows of `column` (`table.column`, from the catalogue) name the user.
    /// `name` nil counts rate-limit keys by id only (what the export holds), else by name too (what deletion removes).
    static func count(_ database: Database, _ column: String, _ how: UserReference, userID: String, name: String?)
        async throws -> Int
    {
        let parts = column.split(separator: ".").map { "\"\($0)\"" }
        let predicate =
            switch how {
            case .id: "\(parts[1]) = $1"
            case .viewer: "\(parts[1]) = 'u:' || $1"
            case .rateKey: "rate_key_names_user(\(parts[1]), $1, $2::text)"
            }
        var binds = PostgresBindings()
        binds.append(userID)
        if how == .rateKey { binds.append(name) }
        let query = PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM \(parts[0]) WHERE \(predicate)", binds: binds)
        return try await database.query(query).first?.decode(Int.self) ?? 0
    }

    /// Base tables with any row whose text (every column) contains `text`: the check that needs no list at all.
    static func tablesMentioning(_ database: Database, _ text: String) async throws -> [String] {
        let tables = try await database.query(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'spatial_ref_sys'
            ORDER BY 1
            """
        ).map { try $0.decode(String.self) }
        var found: [String] = []
        for table in tables {
            var binds = PostgresBindings()
            binds.append(text)
            let query = PostgresQuery(
                unsafeSQL: "SELECT count(*)::int FROM \"\(table)\" t WHERE strpos(t::text, $1) > 0", binds: binds)
            if try await database.query(query).first?.decode(Int.self) ?? 0 > 0 { found.append(table) }
        }
        return found
    }
}

/// Every aggregate the schema keeps, each beside a recount from the base rows: equal when the counts are exact.
enum Aggregates {
    static let checks: [(String, String)] = [
        (
            "store review aggregates",
            """
            SELECT string_agg(concat_ws(' ', id, review_count, rating_count, rating_sum, taste_count, taste_sum,
                environment_count, environment_sum, service_count, service_sum, price_count, price_sum,
                dish_names::text, dish_counts::text), ';' ORDER BY id) FROM stores
            """
        ),
        ("favorite counts", "SELECT string_agg(id || ' ' || favorite_count, ';' ORDER BY id) FROM stores"),
        ("like counts", "SELECT string_agg(id || ' ' || like_count, ';' ORDER BY id) FROM comments"),
        (
            "counted authors",
            "SELECT string_agg(concat_ws(' ', store_id, author_id, comment_id, rating), ';' ORDER BY store_id, author_id) FROM store_raters"
        ),
        (
            "review grams",
            "SELECT string_agg(concat_ws(' ', store_key, gram, review_count), ';' ORDER BY store_key, gram) FROM search_review_grams"
        ),
        (
            "store pairs",
            "SELECT string_agg(concat_ws(' ', store_id, other_id, viewers), ';' ORDER BY store_id, other_id) FROM store_covisits"
        ),
    ]

    /// The recounts, same order and shape as `checks`.
    static let recounts: [String] = [
        "",  // store_aggregates_recount and store_dishes_recount, run in place (see `compare`)
        """
        SELECT string_agg(s.id || ' ' || (SELECT count(*) FROM favorites f WHERE f.store_id = s.id), ';' ORDER BY s.id)
        FROM stores s
        """,
        """
        SELECT string_agg(c.id || ' ' || (SELECT count(*) FROM comment_likes l WHERE l.comment_id = c.id), ';'
            ORDER BY c.id) FROM comments c
        """,
        """
        SELECT string_agg(concat_ws(' ', store_id, author_id, id, rating), ';' ORDER BY store_id, author_id) FROM (
            SELECT DISTINCT ON (store_id, author_id) store_id, author_id, id, rating FROM comments
            WHERE kind = 'review' AND hidden_at IS NULL ORDER BY store_id, author_id, created_at DESC, id DESC) r
        """,
        """
        SELECT string_agg(concat_ws(' ', key, gram, n), ';' ORDER BY key, gram COLLATE "C") FROM (
            SELECT k.key, g.gram, count(*) AS n FROM comments c JOIN search_store_keys k ON k.store_id = c.store_id,
                unnest(search_grams(c.body)) AS g (gram)
            WHERE c.kind = 'review' AND c.hidden_at IS NULL GROUP BY k.key, g.gram) r
        """,
        """
        SELECT string_agg(concat_ws(' ', x, y, n), ';' ORDER BY x, y) FROM (
            SELECT x, y, count(*) AS n FROM (SELECT a AS x, b AS y FROM viewer_covisits UNION ALL
                SELECT b, a FROM viewer_covisits) p GROUP BY x, y) r
        """,
    ]

    /// Each aggregate that differs from its recount, by name (empty when all are exact).
    static func differences(_ database: Database) async throws -> [String] {
        func text(_ sql: String) async throws -> String {
            try await database.query(PostgresQuery(unsafeSQL: sql)).first?.decode(String?.self) ?? ""
        }
        var differing: [String] = []
        let kept = try await text(checks[0].1)
        try await database.query("SELECT store_aggregates_recount(array_agg(id)) FROM stores")
        try await database.query("SELECT store_dishes_recount(id) FROM stores")
        if try await text(checks[0].1) != kept { differing.append(checks[0].0) }
        for (check, recount) in zip(checks.dropFirst(), recounts.dropFirst()) {
            let (have, want) = (try await text(check.1), try await text(recount))
            if have != want { differing.append("\(check.0): kept \(have) recounted \(want)") }
        }
        return differing
    }
}

/// A test's reading of a ZIP archive: the central directory's entries, each checked against its local header and
/// its CRC-32.
enum ZipReading {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> Int { u16(b, at) | u16(b, at + 2) << 16 }

    static func entries(_ bytes: [UInt8]) throws -> [(name: String, bytes: [UInt8])] {
        guard bytes.count >= 22, u32(bytes, bytes.count - 22) == 0x0605_4b50 else {
            throw Failure(description: "no end record")
        }
        let end = bytes.count - 22
        let count = u16(bytes, end + 10)
        var at = u32(bytes, end + 16)
        var entries: [(String, [UInt8])] = []
        for _ in 0..<count {
            guard u32(bytes, at) == 0x0201_4b50 else { throw Failure(description: "bad central header") }
            let (crc, size, nameLength) = (u32(bytes, at + 16), u32(bytes, at + 24), u16(bytes, at + 28))
            let local = u32(bytes, at + 42)
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            guard u32(bytes, local) == 0x0403_4b50, u16(bytes, local + 8) == 0, u32(bytes, local + 14) == crc else {
                throw Failure(description: "bad local header for \(name)")
            }
            let start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28)
            let data = Array(bytes[start..<(start + size)])
            guard Int(CRC32.checksum(data)) == crc else { throw Failure(description: "CRC of \(name)") }
            entries.append((name, data))
            at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32)
        }
        return entries
    }

    /// Runs Python's zipfile on the archive: its own CRC check of every entry, and the names it lists.
    static func python(_ bytes: [UInt8]) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chidian-\(UUID()).zip")
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nbad = z.testzip()\n"
                + "print('BAD ' + bad if bad else '\\n'.join(z.namelist()))",
            path.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "python3 zipfile failed") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `unzip -t`'s verdict when Debian's unzip is installed (nil when it is not).
    static func unzipTest(_ bytes: [UInt8]) throws -> Bool? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return nil }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chidian-\(UUID()).zip")
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-tqq", path.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
