import ChidianCore
import Foundation
import Logging
import PostgresNIO

/// `chidian export DIR`: the seed format, streamed from the database (passwords as bcrypt hashes, images by id).
public struct SeedExporter: Sendable {
    let database: Database
    let logger: Logger

    public init(database: Database) {
        self.database = database
        logger = database.logger
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var users = 0
        public var stores = 0
        public var comments = 0
        public var categories = 0
        public var images = 0
        public var description: String {
            "exported \(users) users, \(categories) categories, \(stores) stores, \(comments) comments, \(images) images"
        }
    }

    public func run(directory: URL, progress: ProgressReporter? = nil) async throws -> Report {
        let files = FileManager.default
        if files.fileExists(atPath: directory.path) {
            guard (try files.contentsOfDirectory(atPath: directory.path)).isEmpty else {
                throw AdminError("\(directory.path) is not empty")
            }
        }
        try files.createDirectory(
            at: directory.appendingPathComponent(SeedFormat.imagesFolder), withIntermediateDirectories: true)
        let logger = self.logger
        // One snapshot for every file; files are written between statements, so a large export is not an
        // abandoned session.
        return try await database.with(timeout: .seconds(30)).transaction(.snapshot, idle: .seconds(600)) {
            connection in
            var report = Report()
            var writer = try JSONArrayWriter(url: directory.appendingPathComponent(SeedFormat.usersFile))
            try connection.requireOpen()
            for try await (id, name, hash, role, avatar, createdAt) in try await connection.query(
                "SELECT id, name, password_hash, role, avatar_image_id, created_at FROM users ORDER BY id",
                logger: logger
            ).decode((String, String, String, String, String?, Date).self) {
                try writer.append(
                    SeedFormat.User(id: id, name: name, keyword: hash, type: role, avatar: avatar, createdAt: createdAt)
                )
                report.users += 1
            }
            try writer.close()

            writer = try JSONArrayWriter(url: directory.appendingPathComponent(SeedFormat.categoriesFile))
            try connection.requireOpen()
            for try await (id, name, createdAt) in try await connection.query(
                "SELECT id, name, created_at FROM categories ORDER BY created_at, id", logger: logger
            ).decode((String, String, Date).self) {
                try writer.append(SeedFormat.Category(id: id, name: name, createdAt: createdAt))
                report.categories += 1
            }
            try writer.close()

            writer = try JSONArrayWriter(url: directory.appendingPathComponent(SeedFormat.storesFile))
            try connection.requireOpen()
            for try await row in try await connection.query(Self.storesQuery, logger: logger) {
                let (
                    id, name, category, categoryID, manager, spend, description, address, archived, createdAt,
                    updatedAt, version,
                    images, fans, favoritedAt, purchaseIDs, amounts, buyers, purchasedAt, lat, lng, hours, timeZone
                ) =
                    try row.decode(
                        (
                            String, String, String, String, String, Int, String, String, Bool, Date, Date, Int,
                            [String], [String], [Date],
                            [String], [Int], [String], [Date], Double?, Double?, String?, String
                        ).self)
                var store = SeedFormat.Store(
                    id: id, name: name, imageName: images, category: category, manager: manager, sumCost: spend,
                    staredUserId: fans, categoryId: categoryID, description: description, address: address,
                    archived: archived, createdAt: createdAt, updatedAt: updatedAt, version: version)
                if let lat, let lng { store.location = SeedFormat.Location(lat: lat, lng: lng) }
                store.hours = hours.flatMap(WeeklyHours.init(stored:)).map { hours in
                    hours.ranges.map {
                        SeedFormat.HoursRange(
                            day: $0.day, open: WeeklyHours.clock($0.open), close: WeeklyHours.clock($0.close))
                    }
                }
                // The default zone is left out, as the original app's files have none.
                store.timeZone = timeZone == StoreTimeZone.defaultName ? nil : timeZone
                store.favorites = zip(fans, favoritedAt).map { SeedFormat.Favorite(userId: $0, createdAt: $1) }
                store.promotions = purchaseIDs.indices.map {
                    SeedFormat.Purchase(
                        id: purchaseIDs[$0], amount: amounts[$0], buyerId: buyers[$0].isEmpty ? nil : buyers[$0],
                        createdAt: purchasedAt[$0])
                }
                try writer.append(store)
                report.stores += 1
            }
            try writer.close()

            // Reports are few next to comments: read them whole and hand each comment its own.
            var reports: [String: [SeedFormat.Report]] = [:]
            for try await row in try await connection.query(Self.reportsQuery, logger: logger) {
                let (id, comment, reporter, reason, note, createdAt, closedAt) = try row.decode(
                    (String, String, String, String, String?, Date, Date?).self)
                reports[comment, default: []].append(
                    SeedFormat.Report(
                        id: id, reporterId: reporter, reason: reason, note: note, createdAt: createdAt,
                        closedAt: closedAt))
            }
            writer = try JSONArrayWriter(url: directory.appendingPathComponent(SeedFormat.commentsFile))
            try connection.requireOpen()
            for try await row in try await connection.query(Self.commentsQuery, logger: logger) {
                let (
                    id, storeID, authorID, rating, body, kind, hiddenAt, createdAt, updatedAt, version, images, taste,
                    environment, service, price, likers, replyBody, repliedAt, replyUpdatedAt
                ) = try row.decode(
                    (
                        String, String, String, Int, String, String, Date?, Date, Date, Int, [String], Int?, Int?, Int?,
                        Int?, [String], String?, Date?, Date?
                    ).self)
                let scores =
                    taste == nil && environment == nil && service == nil
                    ? nil : SeedFormat.Scores(taste: taste, environment: environment, service: service)
                try writer.append(
                    SeedFormat.Comment(
                        id: id, store_id: storeID, user_id: authorID, rating: rating, context: body,
                        commentImageName: images,
                        kind: kind, hidden: hiddenAt != nil, hiddenAt: hiddenAt, createdAt: createdAt,
                        updatedAt: updatedAt,
                        version: version, scores: scores, pricePerPerson: price,
                        likedUserId: likers.isEmpty ? nil : likers,
                        reply: replyBody.map {
                            SeedFormat.Reply(body: $0, createdAt: repliedAt, updatedAt: replyUpdatedAt)
                        },
                        reports: reports[id]))
                report.comments += 1
                if report.comments % 10_000 == 0 {
                    progress?.update(phase: "comments", done: 0, total: 0, rows: report.comments)
                }
            }
            try writer.close()
            progress?.finish()

            try connection.requireOpen()
            for try await (id, contentType, bytes) in try await connection.query(Self.imagesQuery, logger: logger)
                .decode((String, String, Data).self)
            {
                let target = directory.appendingPathComponent(SeedFormat.imagesFolder)
                    .appendingPathComponent("\(id).\(Self.fileExtension(contentType))")
                guard FileManager.default.createFile(atPath: target.path, contents: bytes) else {
                    throw AdminError("cannot write \(target.path)")
                }
                report.images += 1
            }
            return report
        }
    }

    static func fileExtension(_ contentType: String) -> String {
        switch contentType {
        case "image/png": return "png"
        case "image/webp": return "webp"
        case "image/gif": return "gif"
        default: return "jpg"
        }
    }

    static let storesQuery: PostgresQuery = """
        SELECT s.id, s.name, c.name, c.id, s.manager_id, s.ad_spend::int8, s.description, s.address, s.archived_at IS NOT NULL,
               s.created_at, s.updated_at, s.version::int8,
               coalesce((SELECT array_agg(image_id ORDER BY position) FROM store_images WHERE store_id = s.id), '{}'),
               coalesce(f.users, '{}'), coalesce(f.times, '{}'),
               coalesce(p.ids, '{}'), coalesce(p.amounts, '{}'), coalesce(p.buyers, '{}'), coalesce(p.times, '{}'),
               ST_Y(s.location::geometry), ST_X(s.location::geometry), s.hours::text, s.time_zone
        FROM stores s JOIN categories c ON c.id = s.category_id
        LEFT JOIN LATERAL (
            SELECT array_agg(user_id ORDER BY created_at, user_id) AS users, array_agg(created_at ORDER BY created_at, user_id) AS times
            FROM favorites WHERE store_id = s.id
        ) f ON true
        LEFT JOIN LATERAL (
            SELECT array_agg(id ORDER BY created_at, id) AS ids, array_agg(amount::int8 ORDER BY created_at, id) AS amounts,
                   array_agg(coalesce(buyer_id, '') ORDER BY created_at, id) AS buyers, array_agg(created_at ORDER BY created_at, id) AS times
            FROM promotions WHERE store_id = s.id
        ) p ON true
        ORDER BY s.id
        """

    static let reportsQuery: PostgresQuery = """
        SELECT id, comment_id, reporter_id, reason, note, created_at, closed_at FROM reports ORDER BY created_at, id
        """

    static let commentsQuery: PostgresQuery = """
        SELECT m.id, m.store_id, m.author_id, coalesce(m.rating, 0)::int8, m.body, m.kind, m.hidden_at,
               m.created_at, m.updated_at, m.version::int8,
               coalesce((SELECT array_agg(image_id ORDER BY position) FROM comment_images WHERE comment_id = m.id), '{}'),
               m.taste::int8, m.environment::int8, m.service::int8, m.price_per_person::int8,
               coalesce((SELECT array_agg(user_id ORDER BY created_at, user_id) FROM comment_likes WHERE comment_id = m.id), '{}'),
               r.body, r.created_at, r.updated_at
        FROM comments m LEFT JOIN comment_replies r ON r.comment_id = m.id
        ORDER BY m.id
        """

    static let imagesQuery: PostgresQuery = """
        SELECT i.id, b.content_type, b.bytes FROM images i JOIN image_blobs b ON b.sha256 = i.sha256
        WHERE EXISTS (SELECT 1 FROM users u WHERE u.avatar_image_id = i.id)
           OR EXISTS (SELECT 1 FROM store_images s WHERE s.image_id = i.id)
           OR EXISTS (SELECT 1 FROM comment_images c WHERE c.image_id = i.id)
        ORDER BY i.id
        """
}

/// Writes one JSON array, an element per line, without holding the elements.
struct JSONArrayWriter {
    private let handle: FileHandle
    private var buffer = Data()
    private var count = 0
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(SeedDates.format(date))
        }
        return encoder
    }()

    init(url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw AdminError("cannot create \(url.path)")
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.append(contentsOf: Array("[".utf8))
    }

    mutating func append(_ value: some Encodable) throws {
        buffer.append(contentsOf: Array((count == 0 ? "\n" : ",\n").utf8))
        buffer.append(try encoder.encode(value))
        count += 1
        if buffer.count > 1 << 20 {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    mutating func close() throws {
        buffer.append(contentsOf: Array("\n]\n".utf8))
        try handle.write(contentsOf: buffer)
        try handle.close()
    }
}
