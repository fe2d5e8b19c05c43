import Foundation
import Logging
import PostgresNIO

/// Reviews and notices in PostgreSQL. Store rating totals follow in the same transaction through the
/// triggers of 001 (insert, rating change, hide, delete).
public struct CommentRepository: Sendable {
    package let database: Database
    /// Shared comment pages (`Caching.reads`); nil reads PostgreSQL every time.
    package let cache: ReadCache?

    public init(database: Database, cache: ReadCache? = nil) {
        self.database = database
        self.cache = cache
    }

    // MARK: Reading

    /// The visible comments among `ids`, in the order given (unknown, hidden and archived ones left out).
    /// One query whatever the number of ids: the feed and search turn their id lists into comments with it.
    public func views(ids: [String]) async throws -> [CommentView] {
        let logger = database.logger
        return try await database.forReads.withConnection { try await Self.views(ids: ids, on: $0, logger: logger) }
    }

    /// `views(ids:)` on a given connection, so writes can answer from inside their transaction.
    public static func views(ids: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> [CommentView]
    {
        let ids = ids.filter(PlausibleID.check)
        guard !ids.isEmpty else { return [] }
        let views = try await connection.run(CommentStatements.ByIDs(ids: ids), logger: logger)
        let byID = Dictionary(views.map { ($0.id, $0) }) { a, _ in a }
        return ids.compactMap { byID[$0] }
    }

    public func view(id: String) async throws -> CommentView? {
        try await views(ids: [id]).first
    }

    /// The comment as `viewerID` sees it (`liked` theirs), in one statement; as everyone sees it without a viewer.
    package func view(id: String, viewerID: String?) async throws -> CommentView? {
        guard let viewerID else { return try await view(id: id) }
        guard PlausibleID.check(id) else { return nil }
        return try await database.forReads.run(CommentStatements.ByIDFor(id: id, viewerID: viewerID)).first
    }

    /// A store's comments, optionally of one kind: the recommended ones (every notice is), or with
    /// `recommended` false its reviews judged not recommended, newest first whatever `sort`.
    public func storeComments(
        storeID: String, kind: CommentKind?, sort: CommentSort, page: PageRequest, recommended: Bool = true
    ) async throws -> Page<CommentView> {
        if !recommended {
            let list = "store-comments.not-recommended"
            let after = try CommentKeyset.Newest(page.cursor, list: list)
            guard kind != .notice else { return Page(items: [], nextCursor: nil) }
            return try await CommentKeyset.page(
                CommentStatements.StoreNotRecommended(storeID: storeID, after: after, limit: page.limit + 1),
                keys: CommentKeyset.Newest.keys, limit: page.limit, list: list, database: database)
        }
        let kinds = kind.map { [$0.rawValue] } ?? CommentKind.allCases.map(\.rawValue)
        switch sort {
        case .newest:
            let list = "store-comments.newest"
            let after = try CommentKeyset.Newest(page.cursor, list: list)
            return try await CommentKeyset.page(
                CommentStatements.StoreNewest(storeID: storeID, kinds: kinds, after: after, limit: page.limit + 1),
                keys: CommentKeyset.Newest.keys, limit: page.limit, list: list, database: database)
        case .rating:
            let list = "store-comments.rating"
            let after = try CommentKeyset.Rating(page.cursor, list: list)
            let limit = page.limit + 1
            if kind == .review {
                return try await CommentKeyset.page(
                    CommentStatements.StoreReviewsByRating(storeID: storeID, after: after, limit: limit),
                    keys: CommentKeyset.Rating.keys, limit: page.limit, list: list, database: database)
            }
            return try await CommentKeyset.page(
                CommentStatements.StoreByRating(storeID: storeID, kinds: kinds, after: after, limit: limit),
                keys: CommentKeyset.Rating.keys, limit: page.limit, list: list, database: database)
        case .helpful:
            let list = "store-comments.helpful"
            let after = try CommentKeyset.Helpful(page.cursor, list: list)
            return try await CommentKeyset.page(
                CommentStatements.StoreHelpful(storeID: storeID, kinds: kinds, after: after, limit: page.limit + 1),
                keys: CommentKeyset.Helpful.keys, limit: page.limit, list: list, database: database)
        }
    }

    /// A user's comments, newest first: as everyone sees them, or with `own` as their author does (reviews judged
    /// not recommended too).
    public func userComments(userID: String, page: PageRequest, own: Bool = true) async throws -> Page<CommentView> {
        let list = "user-comments.newest"
        let after = try CommentKeyset.Newest(page.cursor, list: list)
        return try await CommentKeyset.page(
            CommentStatements.UserNewest(userID: userID, after: after, limit: page.limit + 1, all: own),
            keys: CommentKeyset.Newest.keys, limit: page.limit, list: list, database: database)
    }

    /// A store that is not archived: its manager, or nil (→ 404 `store_not_found`).
    public func liveStoreManager(storeID: String) async throws -> String? {
        guard PlausibleID.check(storeID) else { return nil }
        return try await database.run(StoreStatements.LiveManager(storeID: storeID)).first
    }

    public func userExists(id: String) async throws -> Bool {
        guard PlausibleID.check(id) else { return false }
        return try await !database.query("SELECT 1 FROM users WHERE id = \(id)").isEmpty
    }

    /// What permission checks need of a visible comment.
    public struct Target: Sendable {
        public let id: String
        public let authorID: String
        public let kind: CommentKind
        public let version: Int
    }

    public func target(id: String) async throws -> Target? {
        guard PlausibleID.check(id) else { return nil }
        let rows = try await database.query(
            """
            SELECT c.author_id, c.kind, c.version FROM comments c JOIN stores s ON s.id = c.store_id
            WHERE c.id = \(id) AND \(unescaped: CommentRow.visible)
            """)
        guard let row = rows.first else { return nil }
        let (author, kind, version) = try row.decodeAll((String, String, Int).self)
        return Target(id: id, authorID: author, kind: CommentKind(rawValue: kind) ?? .review, version: version)
    }

    // MARK: Writing

    public struct NewComment: Sendable {
        public var storeID: String
        public var authorID: String
        public var kind: CommentKind
        public var rating: Int?
        public var body: String
        public var imageIDs: [String]
        public var scores: CommentScores?
        public var pricePerPerson: Int?
        /// Where a review was posted from, for the trust judge.
        public var origin: TrustOrigin?

        public init(
            storeID: String, authorID: String, kind: CommentKind, rating: Int?, body: String, imageIDs: [String],
            scores: CommentScores? = nil, pricePerPerson: Int? = nil, origin: TrustOrigin? = nil
        ) {
            self.origin = origin
            self.storeID = storeID
            self.authorID = authorID
            self.kind = kind
            self.rating = kind == .notice ? nil : rating
            self.body = body
            self.imageIDs = imageIDs
            self.scores = kind == .notice ? nil : scores
            self.pricePerPerson = kind == .notice ? nil : pricePerPerson
        }
    }

    /// Inserts the comment and its images in one transaction; the store's rating totals move with it.
    public func create(_ new: NewComment) async throws -> CommentView {
        let logger = database.logger
        do {
            if new.imageIDs.isEmpty {
                guard let view = try await database.run(CommentStatements.InsertView(new: new)).first else {
                    throw StoreError.notFound(id: new.storeID)
                }
                return view
            }
            return try await database.transaction { connection in
                try await Self.checkImages(new.imageIDs, owner: new.authorID, on: connection, logger: logger)
                let id = try await connection.run(CommentStatements.Insert(new: new), logger: logger)[0]
                try await Self.setImages(new.imageIDs, commentID: id, on: connection, logger: logger)
                // The store may have been archived since it was checked: then the comment is not visible.
                guard let view = try await Self.views(ids: [id], on: connection, logger: logger).first else {
                    throw StoreError.notFound(id: new.storeID)
                }
                return view
            }
        } catch let error as PSQLError where error.serverCode == .foreignKeyViolation {
            throw StoreError.notFound(id: new.storeID)
        }
    }

    /// Fields to change; nil leaves a field as it is. `imageIDs` replaces the whole list; `scores` and
    /// `pricePerPerson` replace theirs (`.some(nil)` clears).
    public struct Patch: Sendable {
        public var rating: Int?
        public var body: String?
        public var imageIDs: [String]?
        public var scores: CommentScores??
        public var pricePerPerson: Int??

        public init(
            rating: Int? = nil, body: String? = nil, imageIDs: [String]? = nil, scores: CommentScores?? = nil,
            pricePerPerson: Int?? = nil
        ) {
            self.rating = rating
            self.body = body
            self.imageIDs = imageIDs
            self.scores = scores
            self.pricePerPerson = pricePerPerson
        }

        public var isEmpty: Bool {
            rating == nil && body == nil && imageIDs == nil && scores == nil && pricePerPerson == nil
        }
    }

    /// Applies `patch` to the author's visible comment. The version check is part of the `UPDATE`,
    /// so of two writers holding the same version exactly one succeeds: the other gets 412.
    public func update(id: String, authorID: String, patch: Patch, ifMatch: Int?) async throws -> CommentView {
        let logger = database.logger
        return try await database.transaction { connection in
            if patch.isEmpty {
                // Nothing to change: no new version, but a stale If-Match is still refused.
                guard let version = try await Self.lockedTarget(id: id, on: connection, logger: logger) else {
                    throw CommentError.notFound(id: id)
                }
                if let ifMatch, ifMatch != version { throw Versioning.versionConflict }
            } else {
                if let imageIDs = patch.imageIDs {
                    try await Self.checkImages(imageIDs, owner: authorID, on: connection, logger: logger)
                }
                let updated = try await connection.rows(
                    """
                    UPDATE comments SET
                        rating = COALESCE(\(patch.rating)::smallint, rating),
                        body = COALESCE(\(patch.body)::text, body),
                        taste = CASE WHEN \(patch.scores != nil) THEN \(patch.scores??.taste)::smallint ELSE taste END,
                        environment = CASE WHEN \(patch.scores != nil)
                            THEN \(patch.scores??.environment)::smallint ELSE environment END,
                        service = CASE WHEN \(patch.scores != nil)
                            THEN \(patch.scores??.service)::smallint ELSE service END,
                        price_per_person = CASE WHEN \(patch.pricePerPerson != nil)
                            THEN \(patch.pricePerPerson ?? nil)::int ELSE price_per_person END,
                        updated_at = now(), version = version + 1
                    WHERE id = \(id) AND author_id = \(authorID) AND hidden_at IS NULL AND NOT store_archived
                      AND (\(ifMatch)::int IS NULL OR version = \(ifMatch)::int)
                    RETURNING id
                    """, logger: logger)
                if updated.isEmpty {
                    guard try await Self.lockedTarget(id: id, on: connection, logger: logger) != nil else {
                        throw CommentError.notFound(id: id)
                    }
                    throw Versioning.versionConflict
                }
                if let imageIDs = patch.imageIDs {
                    try await connection.rows("DELETE FROM comment_images WHERE comment_id = \(id)", logger: logger)
                    try await Self.setImages(imageIDs, commentID: id, on: connection, logger: logger)
                }
            }
            guard let view = try await Self.views(ids: [id], on: connection, logger: logger).first else {
                throw CommentError.notFound(id: id)
            }
            return view
        }
    }

    /// Deletes a visible comment (its images rows cascade); 404 when there is none, 412 on a stale If-Match.
    public func delete(id: String, ifMatch: Int?) async throws {
        let logger = database.logger
        try await database.transaction { connection in
            let deleted = try await connection.rows(
                """
                DELETE FROM comments
                WHERE id = \(id) AND hidden_at IS NULL AND NOT store_archived
                  AND (\(ifMatch)::int IS NULL OR version = \(ifMatch)::int)
                RETURNING id
                """, logger: logger)
            if deleted.isEmpty {
                guard try await Self.lockedTarget(id: id, on: connection, logger: logger) != nil else {
                    throw CommentError.notFound(id: id)
                }
                throw Versioning.versionConflict
            }
        }
    }

    // MARK: Helpers

    /// The visible comment's version, locked for the rest of the transaction (NO KEY: likes and notifications that
    /// name it need not wait).
    static func lockedTarget(id: String, on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let rows = try await connection.rows(
            """
            SELECT version FROM comments
            WHERE id = \(id) AND hidden_at IS NULL AND NOT store_archived
            FOR NO KEY UPDATE
            """, logger: logger)
        return try rows.first?.decodeAll(Int.self)
    }

    /// Every image must exist and have been uploaded by `owner`: else 400 `invalid_images`.
    static func checkImages(_ ids: [String], owner: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        guard !ids.isEmpty else { return }
        let rows = try await connection.rows(
            "SELECT count(*)::int FROM images WHERE id = ANY(\(ids)::text[]) AND uploader_id = \(owner)", logger: logger
        )
        guard try rows[0].decodeAll(Int.self) == Set(ids).count else {
            throw CommentError.invalidImages("Every image must exist and be one you uploaded.")
        }
    }

    /// Writes the image list in the order given.
    static func setImages(_ ids: [String], commentID: String, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        guard !ids.isEmpty else { return }
        try await connection.rows(
            """
            INSERT INTO comment_images (comment_id, position, image_id)
            SELECT \(commentID), (t.n - 1)::smallint, t.image_id
            FROM unnest(\(ids)::text[]) WITH ORDINALITY AS t(image_id, n)
            """, logger: logger)
    }
}
