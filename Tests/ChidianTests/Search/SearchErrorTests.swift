import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct SearchErrorTests {
    @Test func aMissingBlankOrOverlongQueryIsRefused() async throws {
        try await TestApp.run { client, app in
            // setup
            let cases: [(String, String)] = [
                ("/v1/search", "query_required"),
                ("/v1/search?q=", "query_required"),
                ("/v1/search?q=%20%20", "query_required"),
                ("/v1/search?q=%E3%80%80", "query_required"),  // an ideographic space
                ("/v1/search?limit=5", "query_required"),
                (SearchClient.uri(String(repeating: "鱼", count: 65)), "query_too_long"),
                (SearchClient.uri(String(repeating: "a", count: 65)), "query_too_long"),
                (SearchClient.uri("鱼", limit: 0), "invalid_limit"),
                (SearchClient.uri("鱼", limit: 101), "invalid_limit"),
                (SearchClient.uri("鱼", cursor: "not-a-cursor"), "invalid_cursor"),
            ]
            for (uri, code) in cases {
                // MUT
                let response = try await client.send(.get, uri)
                // validate
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.problemCode == code, "\(uri)")
            }
        }
    }

    @Test func sixtyFourCharactersAfterTrimmingAreAccepted() async throws {
        try await TestApp.run { client, app in
            // MUT
            let longest = try await client.send(.get, SearchClient.uri("  " + String(repeating: "鱼", count: 64) + "  "))
            let pinyin = try await client.send(.get, SearchClient.uri(String(repeating: "a", count: 64)))
            // validate
            #expect(longest.status == .ok)
            #expect(pinyin.status == .ok)
            #expect(try longest.json()["items"] as? [Any] != nil)
        }
    }

    @Test func aCursorOfAnotherQueryOrListIsRefused() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await SearchWorld.make(client, app)
            let page = try await SearchClient.page(client, "鱼", limit: 1)
            let storesPage = try await client.send(.get, "/v1/stores?limit=1")
            let storeCursor = try #require(storesPage.json()["nextCursor"] as? String)
            let forged = Cursor(list: "search", keys: ["鱼", "2", "x", "3.5", "s_1"]).token
            // MUT
            let otherQuery = try await client.send(.get, SearchClient.uri("火锅", limit: 1, cursor: page.next))
            let otherList = try await client.send(.get, SearchClient.uri("鱼", limit: 1, cursor: storeCursor))
            let badKeys = try await client.send(.get, SearchClient.uri("鱼", limit: 1, cursor: forged))
            // validate
            #expect(page.next != nil)
            #expect(otherQuery.problemCode == "invalid_cursor")
            #expect(otherList.problemCode == "invalid_cursor")
            #expect(badKeys.problemCode == "invalid_cursor")
        }
    }

    @Test func oddInputFindsNothingRatherThanFailing() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await SearchWorld.make(client, app)
            for q in ["\u{0}", "a\u{0}b", "'; DROP TABLE stores; --", "%_%", "\\%", "🍜", "é", "ﾗｰﾒﾝ"] {
                // MUT
                let response = try await client.send(.get, SearchClient.uri(q))
                // validate
                #expect(response.status == .ok, "q=\(q)")
                #expect((try response.json()["items"] as? [Any])?.isEmpty == true, "q=\(q)")
            }
            let stores = try await app.database.query("SELECT count(*)::int FROM stores")
            #expect(try stores[0].decode(Int.self) == 7)
        }
    }
}
