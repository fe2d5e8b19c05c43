import Foundation
import PostgresNIO

/// Categories are data (added and renamed with the CLI); names are unique case-insensitively.
public struct CategoryRepository: Sendable {
    package let database: Database
    package let cache: ReadCache?

    public init(database: Database, cache: ReadCache? = nil) {
        self.database = database
        self.cache = cache
    }

    /// The category list as JSON `{"items": [...]}`, cached under `categories` (store counts move with stores).
    package func listEntry() async throws -> ReadCache.Entry<[CategoryView]> {
        // Written by hand: JSONEncoder's key order varies between runs, which would change the ETag.
        let render: @Sendable ([CategoryView]) throws -> [UInt8] = { items in
            var json = JSONWriter()
            json.object { json in
                json.key("items")
                json.array(items) { json, category in
                    json.object { json in
                        json.key("id"); json.string(category.id)
                        json.key("name"); json.string(category.name)
                        json.key("storeCount"); json.int(category.storeCount)
                    }
                }
            }
            return try json.finish()
        }
        return try await ReadCache.rendered(in: cache, "categories", tags: { _ in ["categories"] }, render: render) {
            try await list()
        }
    }

    /// Every category with its count of live stores, by name in code-point order.
    public func list() async throws -> [CategoryView] {
        try await database.forReads.query(
            """
            SELECT c.id, c.name,
                (SELECT count(*) FROM stores s WHERE s.category_id = c.id AND s.archived_at IS NULL)::int
            FROM categories c ORDER BY c.name COLLATE "C", c.id
            """
        ).map { row in
            let (id, name, count) = try row.decodeAll((String, String, Int).self)
            return CategoryView(id: id, name: name, storeCount: count)
        }
    }

    public func exists(id: String) async throws -> Bool {
        guard PlausibleID.check(id) else { return false }
        return try await !database.query("SELECT 1 FROM categories WHERE id = \(id)").isEmpty
    }

    /// Adds a category and returns it; `categoryNameTaken` when the name is used (ignoring case).
    public func add(name: String) async throws -> CategoryView {
        do {
            let rows = try await database.query("INSERT INTO categories (name) VALUES (\(name)) RETURNING id")
            return CategoryView(id: try rows[0].decodeAll(String.self), name: name, storeCount: 0)
        } catch let error as PSQLError where error.serverCode == .uniqueViolation {
            throw StoreError.categoryNameTaken(name)
        }
    }

    /// Renames a category: `categoryNotFound`, or `categoryNameTaken` when the name is used (ignoring case).
    public func rename(id: String, to name: String) async throws {
        guard PlausibleID.check(id) else { throw StoreError.categoryNotFound(id: id) }
        do {
            let rows = try await database.query(
                "UPDATE categories SET name = \(name), updated_at = now() WHERE id = \(id) RETURNING id")
            if rows.isEmpty { throw StoreError.categoryNotFound(id: id) }
        } catch let error as PSQLError where error.serverCode == .uniqueViolation {
            throw StoreError.categoryNameTaken(name)
        }
    }
}
