import Foundation
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A signed-in viewer's store lists, 猜你喜欢 and also-viewed are written from the stores' cached JSON with their part patched in (`favorited`,
/// `adSpend`): each store must read exactly as that viewer's own store page writes it from the view.
@Suite struct PersonalStoreListTests {
    @Test func aSignedInListIsEachStoreAsItsViewerSeesIt() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 30 stores, three favorited by the reader and two promoted; a manager and an admin besides
            let manager = try await client.register("店长", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [main, second], count: 30)
            let reader = try await client.register("食客")
            let admin = try await app.admin(client)
            let ids = try await app.database.query(
                "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY name"
            ).map { try $0.decode(String.self) }
            try await app.database.query(
                "INSERT INTO favorites (user_id, store_id) SELECT \(reader.id), unnest(\(Array(ids.prefix(3)))::text[])"
            )
            try await app.database.query(
                "UPDATE stores SET ad_spend = 700 WHERE id = ANY(\(Array(ids[1...2]))::text[])")
            try await app.database.query(
                """
                INSERT INTO store_covisits (store_id, other_id, viewers)
                    SELECT \(ids[9]), b, 2 FROM unnest(\(Array(ids[0..<8]))::text[]) AS b
                """)
            await app.settle()
            var favoritedSeen = 0
            var adSpendSeen = 0
            for token in [reader.token, manager.token, admin.token] {
                let paths = [
                    "/v1/feed/stores?limit=50", "/v1/feed/stores?limit=50&near=30.659,104.081",
                    "/v1/stores/\(ids[9])/also-viewed", "/v1/stores?sort=name&limit=50",
                    "/v1/stores?near=30.659,104.081&sort=distance&limit=50",
                ]
                for path in paths {
                    // MUT: twice, so the second list is written from cache hits
                    _ = try await client.send(.get, path, token: token)
                    let listed = try StoreFixture.items(try await client.send(.get, path, token: token))
                    // validate
                    #expect(!listed.isEmpty, "\(path)")
                    for item in listed {
                        let id = try #require(item["id"] as? String)
                        let page = try await client.send(.get, "/v1/stores/\(id)?track=false", token: token)
                        var expected = try #require(
                            try JSONSerialization.jsonObject(with: Data(page.text.utf8)) as? [String: Any])
                        expected["distanceMeters"] = item["distanceMeters"]
                        #expect(NSDictionary(dictionary: item) == NSDictionary(dictionary: expected), "\(path) \(id)")
                        if item["favorited"] as? Bool == true { favoritedSeen += 1 }
                        if item["adSpend"] != nil { adSpendSeen += 1 }
                    }
                }
            }
            #expect(adSpendSeen > 0)
            // also viewed and the list by name show the reader's three favorites (猜你喜欢 leaves them out)
            #expect(favoritedSeen >= 6)
            // MUT: the list written from cached JSON against the views, for the stores the reader favorited
            let caching = try #require(app.services.caching)
            let stores = StoreRepository(database: app.database, cache: caching.reads, places: caching.places)
            let point = GeoPoint(lat: 30.659, lng: 104.081)
            for user in [
                AuthUser(id: reader.id, name: reader.name, role: .user, tokenHash: []),
                AuthUser(id: manager.id, name: manager.name, role: .manager, tokenHash: []),
            ] {
                let shown = Array(ids.prefix(5))
                let written = try JSONWriter.bytes(
                    of: try await stores.personalList(
                        try await stores.sharedEntries(ids: shown), for: user, near: point))
                let views = try await stores.views(ids: shown, viewer: user).map { $0.measured(from: point) }
                // validate
                #expect(String(decoding: written, as: UTF8.self).contains(#""favorited":true"#) == (user.role == .user))
                #expect(written == (try JSONWriter.bytes(of: StoreList(items: views))))
            }
        }
    }
}
