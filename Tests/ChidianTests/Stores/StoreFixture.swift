import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Test data for the store suites: categories, images and ratings go straight to the database,
/// stores through the API.
enum StoreFixture {
    /// Adds a category beside the server, then waits until the server has applied its invalidations.
    static func category(_ app: TestApp, _ name: String) async throws -> String {
        let id = try await StoreAdmin(database: app.database).addCategory(name: name).id
        await app.settle()
        return id
    }

    static func image(_ app: TestApp, uploaderID: String) async throws -> String {
        try await TestImages.row(app, uploaderID: uploaderID)
    }

    static func images(_ app: TestApp, uploaderID: String, count: Int) async throws -> [String] {
        var ids: [String] = []
        for _ in 0..<count { ids.append(try await image(app, uploaderID: uploaderID)) }
        return ids
    }

    /// Creates a store through the API and returns it as the API's type.
    static func store(
        _ client: any TestClientProtocol, _ manager: Session, name: String, categoryID: String,
        extra: [String: Any] = [:]
    ) async throws -> StoreView {
        try await created(client, manager, name: name, categoryID: categoryID, extra: extra).decode(StoreView.self)
    }

    /// A store's JSON, read as the API's type.
    static func store(_ json: [String: Any]) throws -> StoreView {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(StoreView.self, from: try JSONSerialization.data(withJSONObject: json))
    }

    /// The answer to creating a store, for the tests of its JSON's very shape (a null against a missing key).
    static func created(
        _ client: any TestClientProtocol, _ manager: Session, name: String, categoryID: String,
        extra: [String: Any] = [:]
    ) async throws -> TestResponse {
        var body = extra
        body["name"] = name
        body["categoryId"] = categoryID
        let response = try await client.send(.post, "/v1/stores", body: body, token: manager.token)
        guard response.status == .created else {
            throw TestFailure("create store \(name): \(response.status) \(response.text)")
        }
        return response
    }

    /// Reviews with these ratings, the first by `authorID` and each other by a user of its own (a store's rating
    /// counts one review per author); the comments trigger updates the store's totals.
    static func review(_ app: TestApp, storeID: String, authorID: String, ratings: [Int]) async throws {
        try await app.database.query(
            """
            WITH r AS (SELECT r.rating, r.n FROM unnest(\(ratings)::int[]) WITH ORDINALITY AS r (rating, n)),
            extra AS (
                INSERT INTO users (name, password_hash, role)
                SELECT 'critic ' || r.n || ' ' || md5(random()::text), '$2b$04$fixture', 'user'
                FROM r WHERE r.n > 1
                RETURNING id, split_part(name, ' ', 2)::bigint AS n
            )
            INSERT INTO comments (kind, store_id, author_id, rating, body)
            SELECT 'review', \(storeID), coalesce(e.id, \(authorID)), r.rating, 'tasty'
            FROM r LEFT JOIN extra e ON e.n = r.n
            """)
        // Written beside the server: a store view or comment page read before may be cached.
        await app.settle()
    }

    static func items(_ response: TestResponse) throws -> [[String: Any]] {
        guard let items = try response.json()["items"] as? [[String: Any]] else {
            throw TestFailure("no items: \(response.text)")
        }
        return items
    }

    /// A page of stores, as the API's type.
    static func stores(_ response: TestResponse) throws -> [StoreView] {
        try response.decode(Page<StoreView>.self).items
    }

    /// The ids of any page's items, in order.
    static func ids(_ response: TestResponse) throws -> [String] {
        try response.decode(Page<Identified>.self).items.map(\.id)
    }

    /// What every listed thing has.
    struct Identified: Codable, Sendable {
        let id: String
    }

    static func nextCursor(_ response: TestResponse) throws -> String? {
        try response.decode(Page<Identified>.self).nextCursor
    }

    /// Every page of `path` (which has a `?`), `limit` at a time; fails on a repeated id.
    static func walk(_ client: any TestClientProtocol, _ path: String, limit: Int, token: String? = nil) async throws
        -> (ids: [String], pages: Int)
    {
        var ids: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let uri = path + "&limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try await client.send(.get, uri, token: token)
            guard response.status == .ok else { throw TestFailure("\(uri): \(response.status) \(response.text)") }
            let page = try Self.ids(response)
            #expect(page.count <= limit)
            ids += page
            cursor = try nextCursor(response)
            pages += 1
            if pages > 100 { throw TestFailure("endless paging") }
        } while cursor != nil
        #expect(Set(ids).count == ids.count, "a page repeated an item")
        return (ids, pages)
    }

    static func etag(_ response: TestResponse) -> String? {
        response.headers[.eTag]
    }

    static func visitor(_ id: String = "visitor-0001") -> HTTPFields {
        [HTTPField.Name("X-Visitor-Id")!: id]
    }
}
