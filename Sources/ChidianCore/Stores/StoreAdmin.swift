import Foundation
import PostgresNIO

/// The tasks of `chidian category …` and `chidian store …`, as functions the tests call directly.
/// Failures are `StoreError`s, whose message is the one line the command prints.
public struct StoreAdmin: Sendable {
    package let database: Database
    package let categories: CategoryRepository

    public static let maxCategoryNameLength = 32

    /// The server's, with its (cached) categories from the composition root.
    package init(database: Database, categories: CategoryRepository) {
        self.database = database
        self.categories = categories
    }

    /// A command's: one task, so nothing to cache.
    public init(database: Database) {
        self.init(database: database, categories: CategoryRepository(database: database))
    }

    public func listCategories() async throws -> [CategoryView] {
        try await categories.list()
    }

    /// Adds a category; a name already used (ignoring case) is an error.
    public func addCategory(name raw: String) async throws -> CategoryView {
        let name = try Self.validCategoryName(raw)
        return try await categories.add(name: name)
    }

    public func renameCategory(id: String, to raw: String) async throws -> CategoryView {
        let name = try Self.validCategoryName(raw)
        try await categories.rename(id: id, to: name)
        guard let category = try await categories.list().first(where: { $0.id == id }) else {
            throw StoreError.categoryNotFound(id: id)
        }
        return category
    }

    /// A row of `store list`: every store, archived ones included.
    public struct StoreRow: Sendable, Equatable {
        public var id: String
        public var name: String
        public var category: String
        public var manager: String
        /// The plain average, nil without reviews.
        public var ratingAverage: Double?
        public var ratingCount: Int
        public var adSpend: Int
        public var archived: Bool
    }

    /// Every store, archived ones included, oldest first.
    public func listStores() async throws -> [StoreRow] {
        try await database.query(
            """
            SELECT s.id, s.name, c.name, u.name, s.rating_sum, s.rating_count, s.ad_spend, s.archived_at IS NOT NULL
            FROM stores s JOIN categories c ON c.id = s.category_id JOIN users u ON u.id = s.manager_id
            ORDER BY s.created_at, s.id
            """
        ).map { row in
            let (id, name, category, manager, sum, count, adSpend, archived) =
                try row.decodeAll((String, String, String, String, Int, Int, Int, Bool).self)
            return StoreRow(
                id: id, name: name, category: category, manager: manager,
                ratingAverage: count == 0 ? nil : Double(sum) / Double(count), ratingCount: count,
                adSpend: adSpend, archived: archived)
        }
    }

    /// The most recently archived stores (id, name), for the web client's administration page.
    public func archivedStores(limit: Int) async throws -> [(id: String, name: String)] {
        try await database.query(
            """
            SELECT id, name FROM stores WHERE archived_at IS NOT NULL ORDER BY archived_at DESC, id LIMIT \(limit)
            """
        ).map { row in
            let (id, name) = try row.decodeAll((String, String).self)
            return (id, name)
        }
    }

    /// Archives a store as `DELETE /v1/stores/{id}` does. Returns false when it was already archived.
    @discardableResult
    public func archiveStore(id: String) async throws -> Bool {
        try await setArchived(id: id, archived: true)
    }

    /// Brings an archived store back into every list. Returns false when it was not archived.
    @discardableResult
    public func restoreStore(id: String) async throws -> Bool {
        try await setArchived(id: id, archived: false)
    }

    private func setArchived(id: String, archived: Bool) async throws -> Bool {
        guard PlausibleID.check(id) else { throw StoreError.notFound(id: id) }
        let changed = try await database.query(
            """
            UPDATE stores SET archived_at = CASE WHEN \(archived) THEN now() END, updated_at = now(), version = version + 1,
                edited_version = version + 1
            WHERE id = \(id) AND (archived_at IS NOT NULL) <> \(archived)
            RETURNING id
            """)
        if !changed.isEmpty { return true }
        guard try await !database.query("SELECT 1 FROM stores WHERE id = \(id)").isEmpty else {
            throw StoreError.notFound(id: id)
        }
        return false
    }

    /// Category names follow the store-name shape: trimmed, not blank, at most 32 characters, no control characters.
    static func validCategoryName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw StoreError.invalidCategoryName("The category name must not be blank.") }
        guard TextLimit.fits(name, maxCategoryNameLength) else {
            throw StoreError.invalidCategoryName(
                "The category name must be at most \(maxCategoryNameLength) characters.")
        }
        guard !StoreRules.containsControl(name, allowingLineBreaks: false) else {
            throw StoreError.invalidCategoryName("The category name must not contain control characters.")
        }
        return name
    }
}
