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

/// Test data for the comment suites: categories, stores and images go straight to the database
/// (independent of the stores module), people through the API.
struct CommentWorld {
    let client: any TestClientProtocol
    let app: TestApp
    let manager: Session
    let user: Session
    let categoryID: String
    let storeID: String

    /// A manager with one store in category 火锅, and a user.
    static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> CommentWorld {
        let manager = try await client.register("老板", role: "manager")
        let user = try await client.register("食客")
        let categoryID = try await CommentFixture.category(app, "火锅")
        let storeID = try await CommentFixture.store(app, name: "小龙坎", categoryID: categoryID, managerID: manager.id)
        return CommentWorld(
            client: client, app: app, manager: manager, user: user, categoryID: categoryID, storeID: storeID)
    }

    /// Posts a comment and returns the response.
    func post(_ body: [String: Any], as session: Session?, storeID: String? = nil) async throws -> TestResponse {
        try await client.send(
            .post, "/v1/stores/\(storeID ?? self.storeID)/comments", body: body, token: session?.token)
    }

    /// Posts a review (or a notice for a manager) that must succeed, returning its JSON.
    func comment(_ body: [String: Any], as session: Session, storeID: String? = nil) async throws -> [String: Any] {
        let response = try await post(body, as: session, storeID: storeID)
        guard response.status == .created else {
            throw TestFailure("post comment: \(response.status) \(response.text)")
        }
        return try response.json()
    }

    func review(_ rating: Int, _ text: String = "好吃", as session: Session? = nil, storeID: String? = nil) async throws
        -> [String: Any]
    {
        try await comment(["rating": rating, "body": text], as: session ?? user, storeID: storeID)
    }
}

enum CommentFixture {
    static func category(_ app: TestApp, _ name: String) async throws -> String {
        let id = try await app.database.query("INSERT INTO categories (name) VALUES (\(name)) RETURNING id")[0].decode(
            String.self)
        await app.settle()
        return id
    }

    static func store(_ app: TestApp, name: String, categoryID: String, managerID: String) async throws -> String {
        let id = try await app.database.query(
            "INSERT INTO stores (name, category_id, manager_id) VALUES (\(name), \(categoryID), \(managerID)) RETURNING id"
        )[0].decode(String.self)
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

    static func archive(_ app: TestApp, storeID: String) async throws {
        try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(storeID)")
        await app.settle()
    }

    /// The store's trigger-kept totals and the same computed from its live reviews.
    /// The store's kept rating count and sum, and the same computed from each author's latest live review.
    static func totals(_ app: TestApp, storeID: String) async throws -> (kept: [Int], live: [Int]) {
        let row = try await app.database.query(
            """
            SELECT s.rating_count, s.rating_sum::int, count(l.rating)::int, coalesce(sum(l.rating), 0)::int
            FROM stores s LEFT JOIN (
                SELECT DISTINCT ON (c.author_id) c.rating FROM comments c
                WHERE c.store_id = \(storeID) AND c.kind = 'review' AND c.hidden_at IS NULL
                ORDER BY c.author_id, c.created_at DESC, c.id DESC
            ) l ON true
            WHERE s.id = \(storeID) GROUP BY s.id
            """)[0]
        let (count, sum, liveCount, liveSum) = try row.decode((Int, Int, Int, Int).self)
        return ([count, sum], [liveCount, liveSum])
    }

    static func items(_ response: TestResponse) throws -> [[String: Any]] {
        guard let items = try response.json()["items"] as? [[String: Any]] else {
            throw TestFailure("no items: \(response.text)")
        }
        return items
    }

    static func ids(_ response: TestResponse) throws -> [String] {
        try items(response).map { $0["id"] as! String }
    }

    /// Every id of a list, walking `nextCursor` with `limit`; fails on a page that repeats an id.
    static func walk(_ client: any TestClientProtocol, _ path: String, limit: Int, token: String? = nil) async throws
        -> (ids: [String], pages: Int)
    {
        var ids: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let uri = "\(path)\(separator)limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
            let response = try await client.send(.get, uri, token: token)
            guard response.status == .ok else { throw TestFailure("\(uri): \(response.status) \(response.text)") }
            let page = try response.json()
            ids += try items(response).map { $0["id"] as! String }
            cursor = page["nextCursor"] as? String
            pages += 1
            if pages > 1000 { throw TestFailure("endless pagination") }
        } while cursor != nil
        return (ids, pages)
    }
}
