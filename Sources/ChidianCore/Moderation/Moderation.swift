import Foundation
import Logging
import PostgresNIO

/// Reports and the moderation queue. Every action runs in one transaction with its log entry.
public struct Moderation: Sendable {
    package let database: Database
    public static let reasons = ["spam", "offensive", "off_topic", "fake", "other"]
    public static let maxNoteLength = 500

    public init(database: Database) {
        self.database = database
    }

    /// A note: nil, or trimmed text of at most 500 characters (else 400 `invalid_note`); blank is none.
    public static func validNote(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        let note = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.fits(note, maxNoteLength), !note.unicodeScalars.contains("\u{0}") else {
            throw ModerationError.invalidNote(max: maxNoteLength)
        }
        return note.isEmpty ? nil : note
    }

    /// Files a report: 404 for no visible comment, 403 `own_comment`, 409 `already_reported` while the same
    /// user's earlier report of it is open.
    public func report(commentID: String, reporterID: String, reason: String, note: String?) async throws
        -> ReportView
    {
        guard Self.reasons.contains(reason) else { throw ModerationError.invalidReason }
        guard PlausibleID.check(commentID) else { throw CommentError.notFound(id: commentID) }
        let logger = database.logger
        return try await database.transaction { connection in
            let rows = try await connection.rows(
                """
                SELECT c.author_id FROM comments c JOIN stores s ON s.id = c.store_id
                WHERE c.id = \(commentID) AND \(unescaped: CommentRow.visible)
                """, logger: logger)
            guard let row = rows.first else { throw CommentError.notFound(id: commentID) }
            guard try row.decode(String.self) != reporterID else {
                throw CommentError.ownComment("You cannot report your own comment.")
            }
            let inserted = try await connection.rows(
                """
                INSERT INTO reports (comment_id, reporter_id, reason, note)
                VALUES (\(commentID), \(reporterID), \(reason), \(note))
                ON CONFLICT (comment_id, reporter_id) WHERE closed_at IS NULL DO NOTHING
                RETURNING id, comment_id, reporter_id, reason, note, created_at
                """, logger: logger)
            guard let report = inserted.first else { throw ModerationError.alreadyReported }
            return try Self.reportView(report)
        }
    }

    static func reportView(_ row: PostgresRow) throws -> ReportView {
        let (id, comment, reporter, reason, note, createdAt) = try row.decode(
            (String, String, String, String, String?, Date).self)
        return ReportView(
            id: id, commentId: comment, reporterId: reporter, reason: reason, note: note, createdAt: createdAt)
    }

    /// The queue: one item per reported comment with open (`open`) or only closed (`closed`) reports, most
    /// reported first, then the newest report, then comment id.
    public func queue(open: Bool, page: PageRequest) async throws -> Page<ModerationItem> {
        let list = open ? "moderation.open" : "moderation.closed"
        let keys = try page.cursor?.keys(for: list, [.integer(0...Int(Int32.max)), .timestamp, .id])
        let (k0, k1, k2) = (keys.map { Int($0[0])! }, keys?[1], keys?[2])
        let logger = database.logger
        return try await database.withConnection { connection in
            let rows: [PostgresRow]
            do {
                rows = try await connection.rows(
                    """
                    SELECT r.comment_id, count(*)::int, max(r.created_at)::text FROM reports r
                    WHERE CASE WHEN \(open) THEN r.closed_at IS NULL
                          ELSE r.closed_at IS NOT NULL AND NOT EXISTS (
                              SELECT 1 FROM reports o WHERE o.comment_id = r.comment_id AND o.closed_at IS NULL) END
                    GROUP BY r.comment_id
                    HAVING \(k0)::int IS NULL
                        OR (count(*), max(r.created_at), r.comment_id) < (\(k0)::int, \(k1)::timestamptz, \(k2)::text)
                    ORDER BY count(*) DESC, max(r.created_at) DESC, r.comment_id DESC
                    LIMIT \(page.limit + 1)
                    """, logger: logger)
            } catch let error as PSQLError where error.isDataException {
                throw CursorError.notIssued
            }
            let keyed = try rows.map { row in
                let (id, count, newest) = try row.decode((String, Int, String).self)
                return (id: id, keys: [String(count), newest, id])
            }
            let shown = Array(keyed.prefix(page.limit))
            let items = try await Self.items(ids: shown.map(\.id), open: open, on: connection, logger: logger)
            let next = keyed.count > page.limit ? Cursor(list: list, keys: keyed[page.limit - 1].keys).token : nil
            return Page(items: items, nextCursor: next)
        }
    }

    /// The items of `ids` in that order: each comment (hidden ones too) with the reports of the given status.
    package static func items(ids: [String], open: Bool?, on connection: PostgresConnection, logger: Logger)
        async throws
        -> [ModerationItem]
    {
        guard !ids.isEmpty else { return [] }
        let commentRows = try await connection.rows(
            "SELECT \(unescaped: CommentRow.columns) \(unescaped: CommentRow.from) WHERE c.id = ANY(\(ids)::text[])",
            logger: logger)
        let hiddenRows = try await connection.rows(
            "SELECT id FROM comments WHERE id = ANY(\(ids)::text[]) AND hidden_at IS NOT NULL", logger: logger)
        let hiddenIDs = Set(try hiddenRows.map { try $0.decode(String.self) })
        var comments: [String: (CommentView, Bool)] = [:]
        for row in commentRows {
            let view = try CommentRow.decode(row).view
            comments[view.id] = (view, hiddenIDs.contains(view.id))
        }
        let reportRows = try await connection.rows(
            """
            SELECT id, comment_id, reporter_id, reason, note, created_at, closed_at FROM reports
            WHERE comment_id = ANY(\(ids)::text[])
            ORDER BY created_at DESC, id DESC
            """, logger: logger)
        var reports: [String: [ReportView]] = [:]
        var anyOpen = Set<String>()
        for row in reportRows {
            let (id, comment, reporter, reason, note, createdAt, closedAt) = try row.decode(
                (String, String, String, String, String?, Date, Date?).self)
            let report = ReportView(
                id: id, commentId: comment, reporterId: reporter, reason: reason, note: note, createdAt: createdAt)
            let isOpen = closedAt == nil
            if isOpen { anyOpen.insert(report.commentId) }
            if let open, open != isOpen { continue }
            reports[report.commentId, default: []].append(report)
        }
        return ids.compactMap { id in
            guard let (view, hidden) = comments[id] else { return nil }
            let shown = reports[id] ?? []
            return ModerationItem(
                comment: view, reports: shown, reportCount: shown.count,
                status: anyOpen.contains(id) ? "open" : "closed", hidden: hidden)
        }
    }

    /// Hides, restores or dismisses, logs it with `adminID` (nil from the CLI) and answers the item with every
    /// report. 404 when there is no such comment at all.
    public func act(_ action: ModerationAction, commentID: String, adminID: String?, note: String?) async throws
        -> ModerationItem
    {
        guard PlausibleID.check(commentID) else { throw CommentError.notFound(id: commentID) }
        let logger = database.logger
        return try await database.transaction { connection in
            // Who acts, for the triggers: an admin closing their own report is not notified of it (migration 026).
            if let adminID {
                try await connection.rows("SELECT set_config('chidian.actor', \(adminID), true)", logger: logger)
            }
            // NO KEY UPDATE: inserts naming the comment (the fan-out's notifications) must not wait on it, or one
            // holding a reporter's counter deadlocks with us (NotificationLockTests).
            let found = try await connection.rows(
                "SELECT 1 FROM comments WHERE id = \(commentID) FOR NO KEY UPDATE", logger: logger)
            guard !found.isEmpty else { throw CommentError.notFound(id: commentID) }
            switch action {
            case .hide:
                try await connection.rows(
                    "UPDATE comments SET hidden_at = now() WHERE id = \(commentID) AND hidden_at IS NULL",
                    logger: logger)
                try await Self.closeReports(commentID, on: connection, logger: logger)
            case .restore:
                try await connection.rows(
                    "UPDATE comments SET hidden_at = NULL WHERE id = \(commentID) AND hidden_at IS NOT NULL",
                    logger: logger)
            case .dismiss:
                try await Self.closeReports(commentID, on: connection, logger: logger)
            }
            try await connection.rows(
                """
                INSERT INTO moderation_log (comment_id, action, admin_id, note)
                VALUES (\(commentID), \(action.rawValue), \(adminID), \(note))
                """, logger: logger)
            return try await Self.items(ids: [commentID], open: nil, on: connection, logger: logger)[0]
        }
    }

    static func closeReports(_ commentID: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.rows(
            "UPDATE reports SET closed_at = now() WHERE comment_id = \(commentID) AND closed_at IS NULL",
            logger: logger)
    }

    /// The log, newest first.
    public func log(page: PageRequest) async throws -> Page<ModerationLogEntry> {
        let list = "moderation.log"
        let keys = try page.cursor?.keys(for: list, [.timestamp, .integer(0...Int(Int64.max))])
        let (k0, k1) = (keys?[0], keys.map { Int($0[1])! })
        let rows: [PostgresRow]
        do {
            rows = try await database.query(
                """
                SELECT comment_id, action, admin_id, note, created_at, created_at::text AS created_key, id FROM moderation_log
                WHERE \(k0)::timestamptz IS NULL OR (created_at, id) < (\(k0)::timestamptz, \(k1)::bigint)
                ORDER BY created_at DESC, id DESC LIMIT \(page.limit + 1)
                """)
        } catch let error as PSQLError where error.isDataException {
            throw CursorError.notIssued
        }
        let fetched = try rows.map { row in
            let (comment, action, admin, note, createdAt, key, id) = try row.decode(
                (String, String, String?, String?, Date, String, Int).self)
            return (
                item: ModerationLogEntry(
                    commentId: comment, action: action, adminId: admin, note: note, createdAt: createdAt),
                keys: [key, String(id)]
            )
        }
        return Page(fetched: fetched, limit: page.limit, list: list)
    }
}
