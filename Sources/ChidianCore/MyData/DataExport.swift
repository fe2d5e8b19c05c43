import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Everything the service holds about a user (`GET /v1/me/export`): `data.json`, one array of rows per section,
/// and the photos they uploaded, as one ZIP archive.
///
/// Sections are a list: a table that comes to name users gets its line in `sections` (and its row in the
/// completeness test, which fails until it has one). Each section is one constant statement (`$1` the user id,
/// `$2` their viewer key `u:<id>`) returning one JSON object per row, read as a stream in one
/// snapshot. Work is bounded whoever asks: at most `maxRows` rows a section and `maxJSONBytes` of JSON, at most
/// `maxImages` photos and `maxImageBytes` of them; what a bound leaves out is listed under `truncated`.
public struct DataExport: Sendable {
    package let database: Database
    package var limits = Limits()

    public init(database: Database, limits: Limits = Limits()) {
        self.database = database
        self.limits = limits
    }

    public struct Limits: Sendable {
        public var maxRows = 50_000
        public var maxJSONBytes = 64 << 20
        public var maxImages = 2_000
        public var maxImageBytes = 1 << 30
        public init() {}
    }

    public struct Section: Sendable {
        public var name: String
        public var sql: String
    }

    /// The sections of `data.json`, in order. Passwords and token hashes are never exported.
    public static let sections: [Section] = [
        Section(
            name: "profile",
            sql: "SELECT (to_jsonb(u) - 'password_hash')::text FROM users u WHERE u.id = $1"),
        Section(
            name: "sessions",
            sql: """
                SELECT (to_jsonb(s) - 'token_hash')::text FROM sessions s WHERE s.user_id = $1
                ORDER BY s.created_at, s.token_hash
                """),
        // Without the judge's score: its author is never told the evidence behind a verdict (issue #48).
        Section(
            name: "reviews",
            sql: """
                SELECT ((to_jsonb(c) - 'trust_score') || jsonb_build_object('store_name', s.name, 'image_ids',
                    (SELECT coalesce(jsonb_agg(ci.image_id ORDER BY ci.position), '[]') FROM comment_images ci
                     WHERE ci.comment_id = c.id)))::text
                FROM comments c JOIN stores s ON s.id = c.store_id WHERE c.author_id = $1
                ORDER BY c.created_at, c.id
                """),
        Section(
            name: "counted_ratings",
            sql: "SELECT to_jsonb(r)::text FROM store_raters r WHERE r.author_id = $1 ORDER BY r.store_id"),
        Section(
            name: "replies_received",
            sql: """
                SELECT (to_jsonb(r) || jsonb_build_object('store_name', s.name))::text
                FROM comment_replies r JOIN comments c ON c.id = r.comment_id JOIN stores s ON s.id = c.store_id
                WHERE c.author_id = $1 ORDER BY r.created_at, r.comment_id
                """),
        Section(
            name: "replies_written",
            sql:
                "SELECT to_jsonb(r)::text FROM comment_replies r WHERE r.author_id = $1 ORDER BY r.created_at, r.comment_id"
        ),
        Section(
            name: "likes",
            sql:
                "SELECT to_jsonb(l)::text FROM comment_likes l WHERE l.user_id = $1 ORDER BY l.created_at, l.comment_id"
        ),
        Section(
            name: "favorites",
            sql: """
                SELECT (to_jsonb(f) || jsonb_build_object('store_name', s.name))::text
                FROM favorites f JOIN stores s ON s.id = f.store_id WHERE f.user_id = $1 ORDER BY f.created_at, f.store_id
                """),
        Section(
            name: "following",
            sql: """
                SELECT (to_jsonb(f) || jsonb_build_object('followee_name', u.name))::text
                FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = $1
                ORDER BY f.created_at, f.followee_id
                """),
        Section(
            name: "followers",
            sql: """
                SELECT (to_jsonb(f) || jsonb_build_object('follower_name', u.name))::text
                FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followee_id = $1
                ORDER BY f.created_at, f.follower_id
                """),
        Section(
            name: "notifications",
            sql: """
                SELECT (to_jsonb(n) || jsonb_build_object('actors',
                    (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.user_id, 'name', u.name)
                        ORDER BY a.user_id), '[]')
                     FROM notification_actors a JOIN users u ON u.id = a.user_id WHERE a.notification_id = n.id)))::text
                FROM notifications n WHERE n.user_id = $1 ORDER BY n.seq
                """),
        Section(
            name: "notification_counter",
            sql: "SELECT to_jsonb(c)::text FROM notification_counters c WHERE c.user_id = $1"),
        // The user as the actor of others' notifications (a like, a follow, a review): what, and when.
        Section(
            name: "notified_others",
            sql: """
                SELECT jsonb_build_object('notification_id', n.id, 'kind', n.kind, 'comment_id', n.comment_id,
                    'store_id', n.store_id, 'created_at', n.created_at)::text
                FROM notification_actors a JOIN notifications n ON n.id = a.notification_id WHERE a.user_id = $1
                ORDER BY n.created_at, n.id
                """),
        Section(
            name: "reports",
            sql: "SELECT to_jsonb(r)::text FROM reports r WHERE r.reporter_id = $1 ORDER BY r.created_at, r.id"),
        Section(
            name: "stores_managed",
            sql: """
                SELECT jsonb_build_object('id', s.id, 'name', s.name, 'category_id', s.category_id,
                    'description', s.description, 'address', s.address, 'hours', s.hours, 'time_zone', s.time_zone,
                    'lat', ST_Y(s.location::geometry), 'lng', ST_X(s.location::geometry), 'ad_spend', s.ad_spend,
                    'archived_at', s.archived_at, 'created_at', s.created_at, 'updated_at', s.updated_at)::text
                FROM stores s WHERE s.manager_id = $1 ORDER BY s.created_at, s.id
                """),
        Section(
            name: "promotions",
            sql: "SELECT to_jsonb(p)::text FROM promotions p WHERE p.buyer_id = $1 ORDER BY p.created_at, p.id"),
        Section(
            name: "coupon_claims",
            sql: """
                SELECT (to_jsonb(q) || jsonb_build_object('coupon_title', k.title, 'face_value', k.face_value,
                    'min_spend', k.min_spend, 'store_name', s.name))::text
                FROM coupon_claims q JOIN coupons k ON k.id = q.coupon_id JOIN stores s ON s.id = q.store_id
                WHERE q.user_id = $1 ORDER BY q.claimed_at, q.id
                """),
        Section(
            name: "coupon_holdings",
            sql: "SELECT to_jsonb(h)::text FROM coupon_holders h WHERE h.user_id = $1 ORDER BY h.coupon_id"),
        Section(
            name: "moderation_actions",
            sql: "SELECT to_jsonb(m)::text FROM moderation_log m WHERE m.admin_id = $1 ORDER BY m.created_at, m.id"),
        Section(
            name: "interests",
            sql: """
                SELECT (to_jsonb(i) || jsonb_build_object('category_name', c.name))::text
                FROM viewer_interests i JOIN categories c ON c.id = i.category_id WHERE i.viewer = $2
                ORDER BY i.category_id
                """),
        Section(
            name: "opened_reviews",
            sql: "SELECT to_jsonb(o)::text FROM viewer_opens o WHERE o.viewer = $2 ORDER BY o.opened_at, o.comment_id"),
        Section(
            name: "opened_stores",
            sql: """
                SELECT to_jsonb(o)::text FROM viewer_store_opens o WHERE o.viewer = $2 ORDER BY o.opened_at, o.store_id
                """),
        Section(
            name: "store_pairs",
            sql: "SELECT to_jsonb(p)::text FROM viewer_covisits p WHERE p.viewer = $2 ORDER BY p.at, p.a, p.b"),
        Section(
            name: "exploration",
            sql: "SELECT to_jsonb(e)::text FROM viewer_explore e WHERE e.viewer = $2 ORDER BY e.category_id"),
        Section(
            name: "signals_pending",
            sql: "SELECT to_jsonb(q)::text FROM viewer_event_queue q WHERE q.viewer = $2 ORDER BY q.at, q.id"),
        // What the trust judge keeps of the user (docs/TRUST.md): keyed hashes of where they posted from, and the
        // MinHash bands of their latest reviews' texts; never another user's.
        Section(
            name: "trust_origins",
            sql: "SELECT to_jsonb(t)::text FROM trust_origins t WHERE t.user_id = $1 ORDER BY t.first_at, t.origin"),
        Section(
            name: "trust_text_bands",
            sql: "SELECT to_jsonb(b)::text FROM trust_text_bands b WHERE b.author_id = $1 ORDER BY b.created_at, b.band"
        ),
        Section(
            name: "rate_limits",
            sql: """
                SELECT jsonb_build_object('key', t.key, 'tokens', t.tokens, 'refilled_at', t.refilled_at)::text
                FROM rate_tokens t WHERE rate_key_names_user(t.key, $1, NULL)
                UNION ALL
                SELECT jsonb_build_object('key', b.key, 'hits', b.hits, 'window_start', b.window_start,
                    'expires_at', b.expires_at)::text
                FROM rate_buckets b WHERE rate_key_names_user(b.key, $1, NULL)
                """),
        Section(
            name: "images",
            sql: """
                SELECT (to_jsonb(i) - 'sha256' || jsonb_build_object('sha256', encode(i.sha256, 'hex')))::text
                FROM images i WHERE i.uploader_id = $1 ORDER BY i.created_at, i.id
                """),
    ]

    /// A photo to put in the archive after `data.json`.
    public struct ImageFile: Sendable {
        public var id: String
        public var sha256: [UInt8]
        public var byteCount: Int
        public var path: String
    }

    /// What an export reads before the archive is written: the JSON, and the photos to stream after it.
    public struct Prepared: Sendable {
        public var json: [UInt8]
        public var images: [ImageFile]
    }

    /// Reads every section in one snapshot. Nil when there is no such user.
    public func prepare(userID: String, at now: Date = Date()) async throws -> Prepared? {
        let limits = self.limits
        let logger = database.logger
        return try await database.transaction(.snapshot) { connection -> Prepared? in
            guard
                try await !connection.rows("SELECT 1 FROM users WHERE id = \(userID)", logger: logger).isEmpty
            else { return nil }
            var truncated: [String] = []
            var body: [UInt8] = []
            body.reserveCapacity(1 << 16)
            body += Array("{\"format\":\"chidian-export/1\",\"exportedAt\":".utf8)
            body += Self.json { $0.date(now) }
            body += Array(",\"userId\":".utf8)
            body += Self.json { $0.string(userID) }
            body += Array(",\"sections\":{".utf8)
            for (index, section) in Self.sections.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Self.json { $0.string(section.name) }
                body += Array(":[".utf8)
                var binds = PostgresBindings(capacity: 3)
                binds.append(userID)
                binds.append("u:\(userID)")
                binds.append(limits.maxRows + 1)
                let query = PostgresQuery(
                    unsafeSQL: "SELECT j FROM (\(section.sql)) s (j) LIMIT $3", binds: binds)
                var count = 0
                for try await row in try await connection.query(query, logger: logger) {
                    let object = try row.decode(String.self)
                    count += 1
                    guard count <= limits.maxRows, body.count + object.utf8.count < limits.maxJSONBytes else {
                        truncated.append(section.name)
                        break
                    }
                    if count > 1 { body.append(UInt8(ascii: ",")) }
                    body += object.utf8
                }
                body.append(UInt8(ascii: "]"))
            }
            let images = try await Self.images(userID: userID, limits: limits, on: connection, logger: logger)
            if images.truncated { truncated.append("image_files") }
            body += Array("},\"imageFiles\":[".utf8)
            for (index, image) in images.files.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Self.json { $0.string(image.path) }
            }
            body += Array("],\"truncated\":[".utf8)
            body += truncated.map { "\"\($0)\"" }.joined(separator: ",").utf8
            body += Array("]}".utf8)
            return Prepared(json: body, images: images.files)
        }
    }

    /// One JSON value (never a double, so never refused).
    package static func json(_ value: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: 64)
        value(&writer)
        return writer.bytes
    }

    /// The user's uploads within the bounds, oldest first.
    package static func images(userID: String, limits: Limits, on connection: PostgresConnection, logger: Logger)
        async throws -> (files: [ImageFile], truncated: Bool)
    {
        var files: [ImageFile] = []
        var total = 0
        var truncated = false
        let rows = try await connection.query(
            """
            SELECT id, sha256, bytes, content_type FROM images WHERE uploader_id = \(userID)
            ORDER BY created_at, id LIMIT \(limits.maxImages + 1)
            """, logger: logger)
        for try await row in rows {
            let (id, digest, bytes, contentType) = try row.decode((String, Data, Int, String).self)
            guard files.count < limits.maxImages, total + bytes <= limits.maxImageBytes else {
                truncated = true
                break
            }
            total += bytes
            let ext = contentType.split(separator: "/").last.map(String.init) ?? "bin"
            files.append(ImageFile(id: id, sha256: Array(digest), byteCount: bytes, path: "images/\(id).\(ext)"))
        }
        return (files, truncated)
    }

    /// Writes the archive to `write`: `data.json`, then each photo read from the database one at a time (a
    /// photo whose bytes are gone is left out; its row is in `data.json`), then the directory.
    public func write(_ prepared: Prepared, at now: Date = Date(), to write: ([UInt8]) async throws -> Void)
        async throws
    {
        var zip = ZipWriter(modified: now)
        try await write(try zip.header(name: "data.json", bytes: prepared.json))
        try await write(prepared.json)
        for image in prepared.images {
            let rows = try await database.query(
                "SELECT bytes FROM image_blobs WHERE sha256 = \(Data(image.sha256))")
            guard let row = rows.first else { continue }
            var buffer = try row.decode(ByteBuffer.self)
            let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
            try await write(try zip.header(name: image.path, bytes: bytes))
            try await write(bytes)
        }
        try await write(zip.finish())
    }
}
