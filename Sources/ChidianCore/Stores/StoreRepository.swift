import Foundation
import Logging
import PostgresNIO

/// Stores in PostgreSQL. Archived stores (archived_at set) are invisible here: every read and write
/// treats them as missing, so they answer 404 and leave every list.
public struct StoreRepository: Sendable {
    package let database: Database
    /// Shared store views (`Caching.reads`); nil reads PostgreSQL every time.
    package let cache: ReadCache?
    /// Near me's cells (`Caching.places`); nil: the distance sort is the statement's.
    let places: PlaceCells?
    /// The cache's misses, read together with other requests' (`SharedStoreReads`).
    let sharedReads: SharedStoreReads

    public init(database: Database, cache: ReadCache? = nil, places: ReadCache? = nil) {
        self.database = database
        self.cache = cache
        self.places = places.map { PlaceCells(database: database, cache: $0) }
        sharedReads = SharedStoreReads { ids in try await Self.readShared(ids, from: database) }
    }

    /// Full store views for `ids`, in the order given (duplicates kept), skipping ids that are unknown or archived.
    /// One query: the carousel comes from one ordered aggregate per row and `favorited` from one EXISTS per row.
    /// Search and the feed reuse this after choosing their ids. With the cache, only the stores it lacks are read,
    /// and `favorited` is one small statement for the whole list; `keep` false leaves the ones it read out of the
    /// cache (a piece that shows them is cached instead).
    public func views(ids: [String], viewer: AuthUser?, keep: Bool = true) async throws -> [StoreView] {
        let ids = ids.filter(PlausibleID.check)
        guard !ids.isEmpty else { return [] }
        if cache != nil { return try await personalised(try await sharedViews(ids: ids, keep: keep), for: viewer) }
        if ids.count == 1 { return try await database.forReads.run(StoreStatements.ByID(id: ids[0], viewer: viewer)) }
        guard let viewer else {
            return try await database.forReads.run(StoreStatements.SharedByIDs(ids: ids)).map {
                $0.personalised(for: nil)
            }
        }
        return try await database.forReads.run(StoreStatements.ByIDs(ids: ids, viewer: viewer))
    }

    /// One live store as `viewer` sees it, or nil.
    public func view(id: String, viewer: AuthUser?) async throws -> StoreView? {
        guard PlausibleID.check(id) else { return nil }
        if cache != nil {
            guard let shared = try await sharedViews(ids: [id]).first else { return nil }
            return try await personalised([shared], for: viewer)[0]
        }
        return try await database.forReads.run(StoreStatements.ByID(id: id, viewer: viewer)).first
    }

    /// Whether `id` is a live store: its cached entry, without reading its view back; `keep` false reads a miss
    /// without keeping it.
    public func isLive(_ id: String, keep: Bool = true) async throws -> Bool {
        guard PlausibleID.check(id) else { return false }
        if cache != nil, keep { return try await !sharedEntries(ids: [id]).isEmpty }
        return try await !sharedViews(ids: [id], keep: false).isEmpty
    }

    /// One live store as `viewer` sees it, or 404 `store_not_found`.
    public func requireView(id: String, viewer: AuthUser?) async throws -> StoreView {
        guard let view = try await view(id: id, viewer: viewer) else { throw Self.notFound(id) }
        return view
    }

    /// The manager of a live store, or 404 `store_not_found`; for permission checks before a write.
    public func requireManagerID(of id: String) async throws -> String {
        guard PlausibleID.check(id),
            let row = try await database.query("SELECT manager_id FROM stores WHERE id = \(id) AND archived_at IS NULL")
                .first
        else { throw Self.notFound(id) }
        return try row.decodeAll(String.self)
    }

    package static func notFound(_ id: String) -> StoreError { .notFound(id: id) }

    /// What a new store is made of, already validated for shape.
    public struct Draft: Sendable {
        public var name: String
        public var categoryID: String
        public var description: String
        public var address: String
        public var imageIDs: [String]
        /// Only `set` values count here: a new store has no place or hours unless given.
        public var place: PlaceFields

        public init(
            name: String, categoryID: String, description: String = "", address: String = "", imageIDs: [String] = [],
            place: PlaceFields = PlaceFields()
        ) {
            self.name = name
            self.categoryID = categoryID
            self.description = description
            self.address = address
            self.imageIDs = imageIDs
            self.place = place
        }
    }

    /// Creates a store managed by `managerID` and returns its id. 400 `unknown_category`, 400 `invalid_images`
    /// (an image that is not the manager's upload).
    public func create(_ draft: Draft, managerID: String) async throws -> String {
        let logger = database.logger
        return try await Self.mappingForeignKeys {
            try await database.transaction { connection in
                try await Self.requireCategory(draft.categoryID, on: connection, logger: logger)
                try await Self.requireOwnImages(draft.imageIDs, uploaderID: managerID, on: connection, logger: logger)
                try await Self.requireTimeZone(draft.place.timeZoneName, on: connection, logger: logger)
                let rows = try await connection.rows(
                    """
                    INSERT INTO stores (name, category_id, manager_id, description, address, location, hours, time_zone)
                    VALUES (\(draft.name), \(draft.categoryID), \(managerID), \(draft.description), \(draft.address),
                        ST_SetSRID(ST_MakePoint(\(draft.place.lng)::float8, \(draft.place.lat)::float8), 4326)::geography,
                        \(draft.place.hoursJSON)::jsonb,
                        coalesce(\(draft.place.timeZoneName)::text, \(StoreTimeZone.defaultName)))
                    RETURNING id
                    """, logger: logger)
                let id = try rows[0].decodeAll(String.self)
                try await Self.insertImages(draft.imageIDs, storeID: id, on: connection, logger: logger)
                return id
            }
        }
    }

    /// A partial update: nil fields stay as they are.
    public struct Changes: Sendable {
        public var name: String?
        public var categoryID: String?
        public var description: String?
        public var address: String?
        public var imageIDs: [String]?
        public var place: PlaceFields

        public init(
            name: String? = nil, categoryID: String? = nil, description: String? = nil, address: String? = nil,
            imageIDs: [String]? = nil, place: PlaceFields = PlaceFields()
        ) {
            self.name = name
            self.categoryID = categoryID
            self.description = description
            self.address = address
            self.imageIDs = imageIDs
            self.place = place
        }

        public var isEmpty: Bool {
            name == nil && categoryID == nil && description == nil && address == nil && imageIDs == nil
                && place.isEmpty
        }
    }

    /// Applies `changes` to a live store, bumping its version, when `expectedVersion` (any when nil) was read after
    /// the last edit (`edited_version`; reviews, likes and purchases move `version` but never refuse an edit): the
    /// check and the write are one UPDATE, so of two writers holding the same version only one wins and the other
    /// gets 412 `version_conflict`. Images must be uploads of `actorID`. An empty change writes nothing
    /// but still answers 404 / 412.
    public func update(id: String, changes: Changes, actorID: String, expectedVersion: Int?) async throws {
        guard PlausibleID.check(id) else { throw Self.notFound(id) }
        let logger = database.logger
        try await Self.mappingForeignKeys {
            try await database.transaction { connection in
                if let categoryID = changes.categoryID {
                    try await Self.requireCategory(categoryID, on: connection, logger: logger)
                }
                if let imageIDs = changes.imageIDs {
                    try await Self.requireOwnImages(imageIDs, uploaderID: actorID, on: connection, logger: logger)
                }
                try await Self.requireTimeZone(changes.place.timeZoneName, on: connection, logger: logger)
                let updated: [PostgresRow]
                if changes.isEmpty {
                    updated = try await connection.rows(
                        """
                        SELECT id FROM stores WHERE id = \(id) AND archived_at IS NULL
                            AND (\(expectedVersion)::bigint IS NULL OR \(expectedVersion)::bigint BETWEEN edited_version AND version)
                        """, logger: logger)
                } else {
                    updated = try await connection.rows(
                        """
                        UPDATE stores SET
                            name = COALESCE(\(changes.name)::text, name),
                            category_id = COALESCE(\(changes.categoryID)::text, category_id),
                            description = COALESCE(\(changes.description)::text, description),
                            address = COALESCE(\(changes.address)::text, address),
                            location = CASE WHEN \(changes.place.location.writes) THEN
                                ST_SetSRID(ST_MakePoint(\(changes.place.lng)::float8, \(changes.place.lat)::float8), 4326)::geography
                                ELSE location END,
                            hours = CASE WHEN \(changes.place.hours.writes) THEN \(changes.place.hoursJSON)::jsonb ELSE hours END,
                            time_zone = COALESCE(\(changes.place.timeZoneName)::text, time_zone),
                            updated_at = now(), version = version + 1, edited_version = version + 1
                        WHERE id = \(id) AND archived_at IS NULL
                            AND (\(expectedVersion)::bigint IS NULL OR \(expectedVersion)::bigint BETWEEN edited_version AND version)
                        RETURNING id
                        """, logger: logger)
                }
                guard !updated.isEmpty else {
                    try await Self.explainMiss(id: id, on: connection, logger: logger)
                    return
                }
                if let imageIDs = changes.imageIDs {
                    try await connection.rows("DELETE FROM store_images WHERE store_id = \(id)", logger: logger)
                    try await Self.insertImages(imageIDs, storeID: id, on: connection, logger: logger)
                }
            }
        }
    }

    /// Archives a live store (version checked like `update`): it leaves every list and answers 404; its data stays.
    public func archive(id: String, expectedVersion: Int?) async throws {
        guard PlausibleID.check(id) else { throw Self.notFound(id) }
        let logger = database.logger
        try await database.withConnection { connection in
            let archived = try await connection.rows(
                """
                UPDATE stores SET archived_at = now(), updated_at = now(), version = version + 1, edited_version = version + 1
                WHERE id = \(id) AND archived_at IS NULL
                    AND (\(expectedVersion)::bigint IS NULL OR \(expectedVersion)::bigint BETWEEN edited_version AND version)
                RETURNING id
                """, logger: logger)
            if archived.isEmpty { try await Self.explainMiss(id: id, on: connection, logger: logger) }
        }
    }

    /// After a guarded write matched no row: 404 when the store is gone, else the version was stale (412).
    private static func explainMiss(id: String, on connection: PostgresConnection, logger: Logger) async throws {
        let live = try await connection.rows(
            "SELECT 1 FROM stores WHERE id = \(id) AND archived_at IS NULL", logger: logger)
        throw live.isEmpty ? notFound(id) : Versioning.versionConflict
    }

    /// 400 `unknown_category` unless the category exists.
    static func requireCategory(_ id: String, on connection: PostgresConnection, logger: Logger) async throws {
        let found =
            PlausibleID.check(id)
            ? try await connection.rows("SELECT 1 FROM categories WHERE id = \(id)", logger: logger) : []
        guard !found.isEmpty else { throw StoreError.unknownCategory(id: id) }
    }

    /// 400 `invalid_images` unless every id is an image uploaded by `uploaderID`.
    static func requireOwnImages(
        _ ids: [String], uploaderID: String, on connection: PostgresConnection, logger: Logger
    )
        async throws
    {
        let distinct = Array(Set(try StoreRules.checkImageCount(ids)))
        guard !distinct.isEmpty else { return }
        let rows = try await connection.rows(
            "SELECT count(*)::int FROM images WHERE id = ANY(\(distinct)::text[]) AND uploader_id = \(uploaderID)",
            logger: logger)
        guard try rows[0].decodeAll(Int.self) == distinct.count else {
            throw StoreError.invalidImages("Every image must be one you uploaded.")
        }
    }

    /// 400 `invalid_time_zone` unless PostgreSQL reads the zone too (the lists compute `openNow` there): a name the
    /// system's list has and PostgreSQL's lacks must not fail a list later.
    static func requireTimeZone(_ name: String?, on connection: PostgresConnection, logger: Logger) async throws {
        guard let name else { return }
        do {
            try await connection.rows("SELECT now() AT TIME ZONE \(name)", logger: logger)
        } catch let error as PSQLError where error.serverCode == .invalidParameterValue {
            throw PlaceError.invalidTimeZone
        }
    }

    /// The carousel in the given order: position 0, 1, ...
    static func insertImages(
        _ ids: [String], storeID: String, on connection: PostgresConnection, logger: Logger
    )
        async throws
    {
        guard !ids.isEmpty else { return }
        try await connection.rows(
            """
            INSERT INTO store_images (store_id, position, image_id)
            SELECT \(storeID), given.position - 1, given.image_id
            FROM unnest(\(ids)::text[]) WITH ORDINALITY AS given (image_id, position)
            """, logger: logger)
    }

    /// A category or image deleted between the check and the write surfaces as a foreign-key violation.
    static func mappingForeignKeys<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverCode == .foreignKeyViolation {
            let constraint = error.serverInfo?[.constraintName] ?? ""
            if constraint.contains("category") { throw StoreError.unknownCategory(id: nil) }
            if constraint.contains("image") { throw StoreError.invalidImages("An image no longer exists.") }
            throw error
        }
    }
}
