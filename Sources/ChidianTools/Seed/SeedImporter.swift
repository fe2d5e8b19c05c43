import ChidianCore
import Foundation
import Logging
import PostgresNIO

/// `chidian seed DIR`: validates the whole directory first, then writes everything in one transaction as an
/// upsert by id, so a second import of the same directory changes nothing (not even updatedAt or version).
public struct SeedImporter: Sendable {
    let database: Database
    let passwords: Passwords
    let logger: Logger
    let trustEnabled: Bool

    public init(database: Database, config: AppConfiguration) {
        self.database = database
        trustEnabled = config.trustEnabled
        passwords = Passwords(cost: config.bcryptCost)
        logger = database.logger
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var users = 0
        public var stores = 0
        public var comments = 0
        public var images = 0
        public var changed: [String: Int] = [:]
        public var warnings: [SeedIssue] = []
        public var dryRun = false
        /// Imported reviews judged, and of those judged not recommended (docs/TRUST.md).
        public var judged = 0
        public var notRecommended = 0

        public var description: String {
            let counts = "\(users) users, \(stores) stores, \(comments) comments, \(images) images"
            if dryRun { return "valid: \(counts) (dry run, nothing written)" }
            let changes = ["users", "stores", "comments", "favorites", "images"].map { "\($0) \(changed[$0] ?? 0)" }
            return "imported \(counts); new or changed: " + changes.joined(separator: ", ")
                + "; judged \(judged) reviews, \(notRecommended) not recommended"
        }
    }

    public func run(directory: URL, dryRun: Bool = false, progress: ProgressReporter? = nil) async throws -> Report {
        let existing = try await loadExisting()
        var reader = SeedReader(directory: directory, existing: existing)
        reader.readUsers()
        reader.readCategories()
        reader.readStores()
        var report = Report()
        report.dryRun = dryRun
        if dryRun || !reader.issues.isEmpty {
            var count = 0
            try await reader.readComments(progress: progress, phase: "checking comments") { _ in
                count += 1
            }
            progress?.finish()
            guard reader.issues.isEmpty else { throw reader.issues.error() }
            report.users = reader.users.count
            report.stores = reader.stores.count
            report.comments = count
            report.images = reader.images.owners.count
            report.warnings = reader.issues.warnings
            return report
        }
        let hashes = try await passwordHashes(reader.users, existing: existing)
        let writer = SeedWriter(logger: logger)
        let reader2 = reader
        // Between statements the client streams files and counts search grams: ten minutes, not the pool's 5 s.
        let result = try await database.with(timeout: .seconds(30)).transaction(idle: .seconds(600)) { connection in
            var reader = reader2
            return try await writer.write(reader: &reader, hashes: hashes, on: connection, progress: progress)
        }
        progress?.finish()
        // Fresh rows have no statistics until autovacuum comes by: the first feed pages after an import were planned
        // as if every table were empty (issue #46). Outside the transaction, which ANALYZE would keep open.
        try await database.with(timeout: .seconds(600)).query(Self.analyze)
        report = result
        // Imported reviews are judged by the same rules as posted ones, before the command returns.
        let queued = try await database.query("SELECT count(*)::int FROM trust_queue")[0].decode(Int.self)
        let trust = TrustService(database: database, enabled: trustEnabled)
        let pass = try await trust.judgeAll { done in
            progress?.update(phase: "judging reviews", done: done, total: queued, rows: done)
        }
        progress?.finish()
        report.judged = pass.due
        report.notRecommended = try await database.query(
            "SELECT count(*)::int FROM comments WHERE kind = 'review' AND NOT recommended")[0].decode(Int.self)
        return report
    }

    /// What an import writes, itself or through its triggers (search, ratings, notifications).
    static let analyze: PostgresQuery = """
        ANALYZE users, categories, stores, comments, favorites, images, store_images, comment_images, comment_likes,
            comment_replies, reports, promotions, store_raters, search_store_keys, search_dish_stores,
            search_review_grams, search_name_grams, search_pinyin, search_dishes, notifications, notification_actors,
            notification_counters
        """

    /// Plain-text keywords are hashed; one that still matches the stored hash keeps it, so re-imports change nothing.
    func passwordHashes(_ users: [SeedUser], existing: ExistingData) async throws -> [String: String] {
        var hashes: [String: String] = [:]
        var plain: [(String, String, String?)] = []
        for user in users {
            if user.keyword.hasPrefix("$2") {
                hashes[user.id] = user.keyword
            } else {
                plain.append((user.id, user.keyword, existing.passwordHashes[user.id]))
            }
        }
        let passwords = self.passwords
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            var next = 0
            func add() {
                guard next < plain.count else { return }
                let (id, keyword, current) = plain[next]
                next += 1
                group.addTask {
                    if let current, try await passwords.verify(keyword, hash: current) { return (id, current) }
                    return (id, try await passwords.hash(keyword))
                }
            }
            for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) { add() }
            while let (id, hash) = try await group.next() {
                hashes[id] = hash
                add()
            }
        }
        return hashes
    }

    func loadExisting() async throws -> ExistingData {
        try await database.withConnection { connection in
            var data = ExistingData()
            try connection.requireOpen()
            for try await (id, name, role, hash) in try await connection.query(
                "SELECT id, name, role, password_hash FROM users", logger: logger
            ).decode((String, String, String, String).self) {
                data.userRoles[id] = Role(rawValue: role) ?? .user
                data.userIDsByLowerName[name.lowercased()] = id
                data.passwordHashes[id] = hash
            }
            try connection.requireOpen()
            for try await (id, manager, spend) in try await connection.query(
                "SELECT id, manager_id, ad_spend FROM stores", logger: logger
            ).decode((String, String, Int).self) {
                data.storeManagers[id] = manager
                data.storeAdSpend[id] = spend
            }
            return data
        }
    }
}
