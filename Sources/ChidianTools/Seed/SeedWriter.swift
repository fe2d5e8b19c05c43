import ChidianCore
import Foundation
import Logging
import PostgresNIO

/// The write half of a seed import, inside one transaction: rows are streamed with COPY into temporary
/// tables, then merged into the real tables with upserts that touch only rows whose content differs.
struct SeedWriter: Sendable {
    let logger: Logger

    func write(
        reader: inout SeedReader, hashes: [String: String], on connection: PostgresConnection,
        progress: ProgressReporter?
    ) async throws -> SeedImporter.Report {
        var report = SeedImporter.Report()
        // One import at a time. (Its transaction's idle limit is the importer's: files are streamed between
        // statements.)
        try await connection.rows("SELECT pg_advisory_xact_lock(7041978)", logger: logger)
        // Servers' caches: one "everything changed" at commit, and the versions written are the versions kept
        // (migration 016).
        try await connection.rows("SET LOCAL chidian.import = 'on'", logger: logger)
        for statement in SQLScript.statements(Self.stagingTables) {
            try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
        }

        // Images of users and stores first (users point at avatars); their uploaders are set once users exist.
        var imagesWritten = Set<String>()
        try await stageImages(
            reader.images, names: Set(reader.images.owners.keys), written: &imagesWritten, on: connection)

        try await copy(
            "seed_users", ["id", "name", "password_hash", "role", "avatar", "created_at", "position"], on: connection
        ) {
            buffer in
            for user in reader.users {
                buffer.append([
                    user.id, user.name, hashes[user.id], user.role.rawValue, user.avatar,
                    CopyBuffer.date(user.createdAt),
                    String(user.position),
                ])
            }
        }
        try await copy("seed_categories", ["id", "name", "created_at", "position"], on: connection) { buffer in
            for category in reader.categories {
                buffer.append([
                    category.id, category.name, CopyBuffer.date(category.createdAt), String(category.position),
                ])
            }
        }
        let users = reader.users
        let stores = reader.stores
        try await copy(
            "seed_stores",
            [
                "id", "name", "category", "category_id", "manager_id", "sum_cost", "description", "address", "archived",
                "created_at", "updated_at", "version", "position", "lat", "lng", "hours", "time_zone",
            ], on: connection
        ) { buffer in
            for store in stores {
                buffer.append([
                    store.id, store.name, store.category, store.categoryID, store.managerID, String(store.sumCost),
                    store.description, store.address, store.archived ? "t" : "f", CopyBuffer.date(store.createdAt),
                    CopyBuffer.date(store.updatedAt), store.version.map(String.init), String(store.position),
                    store.location.map { String($0.lat) }, store.location.map { String($0.lng) },
                    store.hours?.storedJSON, store.timeZone,
                ])
            }
        }
        try await copy("seed_store_images", ["store_id", "position", "image_id"], on: connection) { buffer in
            for store in stores {
                for (position, image) in store.imageNames.enumerated() {
                    buffer.append([store.id, String(position), image])
                }
            }
        }
        try await copy("seed_favorites", ["user_id", "store_id", "created_at"], on: connection) { buffer in
            for store in stores {
                for fan in store.favorites { buffer.append([fan.userID, store.id, CopyBuffer.date(fan.createdAt)]) }
            }
        }
        try await copy("seed_promotions", ["id", "store_id", "buyer_id", "amount", "created_at"], on: connection) {
            buffer in
            for store in stores {
                for purchase in store.purchases {
                    buffer.append([
                        purchase.id, store.id, purchase.buyerID, String(purchase.amount),
                        CopyBuffer.date(purchase.createdAt),
                    ])
                }
            }
        }
        try await connection.rows(Self.mergeBlobs, logger: logger)
        report.changed["images"] = try await count(Self.mergeImages, on: connection)
        report.changed["users"] = try await count(Self.mergeUsers, on: connection)
        try await connection.rows(Self.setImageOwners, logger: logger)
        try await connection.rows(PostgresQuery(unsafeSQL: Self.mergeListedCategories), logger: logger)
        try await connection.rows(Self.mergeCategories, logger: logger)
        report.changed["stores"] = try await count(Self.mergeStores, on: connection)
        try await run(Self.mergeStoreImages, on: connection)
        try await connection.rows(Self.mergePromotions, logger: logger)
        try await connection.rows(Self.adSpendAdjustments, logger: logger)
        report.changed["favorites"] = try await count(Self.mergeFavorites, on: connection)

        // Comments stream straight from the file into COPY, validated on the way.
        var comments = 0
        var commentImages: [(String, Int, String)] = []
        var commentLikes: [(String, String)] = []
        var commentReplies: [(String, SeedFormat.Reply)] = []
        var reports: [(String, SeedFormat.Report)] = []
        var commentImageNames = Set<String>()
        try connection.requireOpen()
        try await connection.copyFrom(
            table: "seed_comments",
            columns: [
                "id", "kind", "store_id", "author_id", "rating", "body", "hidden", "hidden_at", "created_at",
                "updated_at",
                "version", "position", "taste", "environment", "service", "price_per_person",
            ],
            logger: logger
        ) { writer in
            var buffer = CopyBuffer()
            try await reader.readComments(progress: progress) { comment in
                comments += 1
                buffer.append([
                    comment.id, comment.kind, comment.storeID, comment.userID, comment.rating.map(String.init),
                    comment.body,
                    comment.hidden ? "t" : "f", CopyBuffer.date(comment.hiddenAt), CopyBuffer.date(comment.createdAt),
                    CopyBuffer.date(comment.updatedAt), comment.version.map(String.init), String(comment.position),
                    comment.scores?.taste.map(String.init), comment.scores?.environment.map(String.init),
                    comment.scores?.service.map(String.init), comment.pricePerPerson.map(String.init),
                ])
                for liker in comment.likedUserIDs { commentLikes.append((comment.id, liker)) }
                if let reply = comment.reply { commentReplies.append((comment.id, reply)) }
                for report in comment.reports { reports.append((comment.id, report)) }
                for (position, image) in comment.imageNames.enumerated() {
                    commentImages.append((comment.id, position, image))
                    commentImageNames.insert(image)
                }
                if buffer.isFull { try await buffer.flush(to: writer) }
            }
            // A bad comment anywhere rejects the whole import: nothing is committed.
            guard reader.issues.isEmpty else { throw reader.issues.error() }
            try await buffer.flush(to: writer)
        }
        try await stageImages(reader.images, names: commentImageNames, written: &imagesWritten, on: connection)
        try await connection.rows(Self.mergeBlobs, logger: logger)
        report.changed["images", default: 0] += try await count(Self.mergeImages, on: connection)
        try await connection.rows(Self.setImageOwners, logger: logger)
        let images = commentImages
        try await copy("seed_comment_images", ["comment_id", "position", "image_id"], on: connection) { buffer in
            for (comment, position, image) in images { buffer.append([comment, String(position), image]) }
        }
        progress?.update(phase: "merging comments", done: 1, total: 1, rows: comments)
        // Row triggers would update a store row per review; they skip this transaction's rows (migration 005) and
        // the totals and summaries are recomputed once below, with the touched stores locked against writers.
        try await connection.rows(Self.lockTouchedStores, logger: logger)
        try await connection.rows("SET LOCAL chidian.bulk_import = 'on'", logger: logger)
        report.changed["comments"] = try await count(Self.mergeComments, on: connection)
        try await run(Self.mergeCommentImages, on: connection)
        let likes = commentLikes
        try await copy("seed_comment_likes", ["comment_id", "user_id"], on: connection) { buffer in
            for (comment, user) in likes { buffer.append([comment, user]) }
        }
        try await connection.rows(Self.mergeCommentLikes, logger: logger)
        let replies = commentReplies
        try await copy("seed_comment_replies", ["comment_id", "body", "created_at", "updated_at"], on: connection) {
            buffer in
            for (comment, reply) in replies {
                buffer.append([comment, reply.body, CopyBuffer.date(reply.createdAt), CopyBuffer.date(reply.updatedAt)])
            }
        }
        try await connection.rows(Self.mergeCommentReplies, logger: logger)
        let staged = reports
        try await copy(
            "seed_reports", ["id", "comment_id", "reporter_id", "reason", "note", "created_at", "closed_at"],
            on: connection
        ) { buffer in
            for (comment, report) in staged {
                buffer.append([
                    report.id, comment, report.reporterId, report.reason, report.note,
                    CopyBuffer.date(report.createdAt),
                    CopyBuffer.date(report.closedAt),
                ])
            }
        }
        try await connection.rows(Self.mergeReports, logger: logger)
        try await connection.rows(Self.recomputeRatings, logger: logger)
        try await ImportPause.reached(.commentsMerged)
        try await SearchIndex.refreshAfterImport(on: connection, logger: logger)
        try await connection.rows(Self.recountDishes, logger: logger)
        try await connection.rows("SET LOCAL chidian.bulk_import = 'off'", logger: logger)
        try await ImportPause.reached(.beforeCommit)

        report.users = users.count
        report.stores = stores.count
        report.comments = comments
        report.images = imagesWritten.count
        report.warnings = reader.issues.warnings
        return report
    }

    private func copy(
        _ table: String, _ columns: [String], on connection: PostgresConnection, rows: (inout CopyBuffer) -> Void
    ) async throws {
        var buffer = CopyBuffer()
        rows(&buffer)
        guard buffer.rows > 0 else { return }
        try connection.requireOpen()
        try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
            try await buffer.flush(to: writer)
        }
    }

    /// Stages image rows with their bytes, streamed file by file (the bytes go into image_blobs with the rows).
    private func stageImages(
        _ files: SeedImageFiles, names: Set<String>, written: inout Set<String>, on connection: PostgresConnection
    ) async throws {
        try await connection.rows("TRUNCATE seed_images", logger: logger)
        var files = files
        var pending: [(String, URL, ImageFormat.Info)] = []
        for name in names.sorted() where !written.contains(name) {
            guard let url = files.file(for: name), let info = files.info(name) else { continue }
            pending.append((name, url, info))
            written.insert(name)
        }
        guard !pending.isEmpty else { return }
        let owners = files.owners
        try connection.requireOpen()
        try await connection.copyFrom(
            table: "seed_images",
            columns: ["id", "sha256", "content_type", "width", "height", "bytes", "owner", "data"],
            logger: logger
        ) { writer in
            var buffer = CopyBuffer()
            for (name, url, info) in pending {
                let bytes = [UInt8](try Data(contentsOf: url))
                buffer.append([
                    name, CopyBuffer.hex(ImageDigest.sha256(bytes)), info.format.contentType, String(info.width),
                    String(info.height), String(bytes.count), owners[name], CopyBuffer.hex(bytes),
                ])
                if buffer.isFull { try await buffer.flush(to: writer) }
            }
            try await buffer.flush(to: writer)
        }
    }

    private func count(_ sql: String, on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.rows(PostgresQuery(unsafeSQL: sql), logger: logger)
        return try rows.first?.decode(Int.self) ?? 0
    }

    private func run(_ script: String, on connection: PostgresConnection) async throws {
        for statement in SQLScript.statements(script) {
            try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }
}
