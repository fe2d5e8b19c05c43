import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// HTTP caching and read-your-writes through the API, run with the cache and with `CACHE=off` (`make test` runs the
/// suite both ways): the answers and their validators must not depend on it.
@Suite struct CacheHTTPTests {
    @Test func aStorePageAnswers304UntilWhatItShowsChanges() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("店长", role: "manager")
            let eater = try await client.register("食客")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "老灶", categoryID: category).id
            let first = try await client.send(.get, "/v1/stores/\(id)")
            #expect(first.headers[.eTag] == "\"1\"")
            #expect(first.headers[.cacheControl] == "public, max-age=1")
            #expect(first.headers[.vary] == "Authorization")
            // MUT + validate: current → 304 without a body, signed in or not
            let same = try await client.send(.get, "/v1/stores/\(id)", headers: [.ifNoneMatch: "\"1\""])
            #expect(same.status == .notModified && same.body.readableBytes == 0)
            let mine = try await client.send(.get, "/v1/stores/\(id)", token: eater.token)
            #expect(mine.headers[.cacheControl] == "private, no-cache")
            let review = try await client.send(
                .post, "/v1/stores/\(id)/comments", body: ["rating": 5, "body": "锅底很香"], token: eater.token)
            #expect(review.status == .created)
            // A review changes what the store shows: its version, so the old validator no longer matches.
            let after = try await client.send(.get, "/v1/stores/\(id)", headers: [.ifNoneMatch: "\"1\""])
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] == "\"2\"")
            #expect((try after.json()["rating"] as? [String: Any])?["count"] as? Int == 1)
            let favorite = try await client.send(.put, "/v1/stores/\(id)/favorite", token: eater.token)
            #expect(favorite.status == .noContent)
            let favorited = try await client.send(.get, "/v1/stores/\(id)", token: eater.token).json()
            #expect(favorited["favorited"] as? Bool == true)
            #expect(favorited["favoriteCount"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["favorited"] as? Bool == false)
        }
    }

    @Test func anIfMatchIsRefusedByAnotherEditNotByAReview() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("店长", role: "manager")
            let eater = try await client.register("食客")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "老灶", categoryID: category).id
            _ = try await client.send(
                .post, "/v1/stores/\(id)/comments", body: ["rating": 4, "body": "好吃"], token: eater.token)
            // MUT: the manager's form was read at version 1, before the review
            let edit = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["address": "一号"], token: manager.token,
                headers: [.ifMatch: "\"1\""])
            let stale = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["address": "二号"], token: manager.token,
                headers: [.ifMatch: "\"2\""])
            // validate
            #expect(edit.status == .ok)
            #expect(edit.headers[.eTag] == "\"3\"")
            #expect(stale.status == .preconditionFailed && stale.problemCode == "version_conflict")
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["address"] as? String == "一号")
        }
    }

    @Test func listsCarryContentValidatorsAndShowAWriteAtOnce() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("店长", role: "manager")
            let eater = try await client.register("食客")
            let fan = try await client.register("粉丝")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "老灶", categoryID: category).id
            let review =
                try await client.send(
                    .post, "/v1/stores/\(id)/comments", body: ["rating": 4, "body": "毛肚很嫩"], token: eater.token
                ).json()["id"] as! String
            let path = "/v1/stores/\(id)/comments"
            let page = try await client.send(.get, path)
            let etag = try #require(page.headers[.eTag])
            #expect(try await client.send(.get, path, headers: [.ifNoneMatch: etag]).status == .notModified)
            // MUT
            #expect(try await client.send(.put, "/v1/comments/\(review)/like", token: fan.token).status == .noContent)
            // validate: the liker and everyone else see it on their next read
            let liked = try StoreFixture.items(try await client.send(.get, path, token: fan.token))
            #expect(liked.first?["liked"] as? Bool == true && liked.first?["likeCount"] as? Int == 1)
            let anonymous = try await client.send(.get, path, headers: [.ifNoneMatch: etag])
            #expect(anonymous.status == .ok && anonymous.headers[.eTag] != etag)
            #expect(try StoreFixture.items(anonymous).first?["likeCount"] as? Int == 1)
            // Search and the daily promotions follow a rename and a purchase at once.
            let searched = try await client.send(
                .get, "/v1/search?q=\("老灶".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(try StoreFixture.items(searched).count == 1)
            let renamed = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "新灶"], token: manager.token)
            #expect(renamed.status == .ok)
            let old = try await client.send(
                .get, "/v1/search?q=\("老灶".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(try StoreFixture.items(old).isEmpty)
            #expect(try StoreFixture.items(try await client.send(.get, "/v1/promotions/daily")).isEmpty)
            _ = try await client.send(.post, "/v1/stores/\(id)/promotions", body: ["amount": 10], token: manager.token)
            let daily = try await client.send(.get, "/v1/promotions/daily")
            #expect(try StoreFixture.ids(daily) == [id])
            #expect(daily.headers[.eTag] != nil && daily.headers[.cacheControl] == "public, max-age=1")
            let categories = try await client.send(.get, "/v1/categories").json()["items"] as? [[String: Any]]
            #expect(categories?.first?["storeCount"] as? Int == 1)
        }
    }

    @Test func cachedAndUncachedServersGiveTheSameBytes() async throws {
        try await TestApp.run(configure: { $0.cacheEnabled = true }) { cached, app in
            // setup: a second router on the same database without the cache
            let plain = app.uncached()
            let manager = try await cached.register("店长", role: "manager")
            let eater = try await cached.register("食客")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(cached, manager, name: "老灶", categoryID: category).id
            let review =
                try await cached.send(
                    .post, "/v1/stores/\(id)/comments", body: ["rating": 4, "body": "毛肚很嫩"], token: eater.token
                ).json()["id"] as! String
            _ = try await cached.send(.put, "/v1/comments/\(review)/like", token: manager.token)
            _ = try await cached.send(.put, "/v1/stores/\(id)/favorite", token: eater.token)
            _ = try await cached.send(.post, "/v1/stores/\(id)/promotions", body: ["amount": 30], token: manager.token)
            // A second store matching 毛肚 by its name: a search page of two stores, or one and a cursor.
            let named =
                try await StoreFixture.store(cached, manager, name: "毛肚王", categoryID: category).id
            _ = try await cached.send(.put, "/v1/stores/\(named)/favorite", token: eater.token)
            let paths = [
                "/v1/stores/\(id)", "/v1/stores/\(id)/comments", "/v1/stores/\(id)/comments?sort=helpful&limit=1",
                "/v1/promotions/daily", "/v1/categories", "/v1/search?q=%E6%AF%9B%E8%82%9A",
                "/v1/search?q=%E6%AF%9B%E8%82%9A&limit=1", "/v1/stores?sort=rating",
            ]
            // MUT + validate: each path twice through the cache (a miss, then a hit) and once without it
            try await plain.test(.router) { uncached in
                for path in paths {
                    for token in [nil, eater.token, manager.token] {
                        let miss = try await cached.send(.get, path, token: token)
                        let hit = try await cached.send(.get, path, token: token)
                        let direct = try await uncached.send(.get, path, token: token)
                        #expect(miss.status == .ok, "\(path)")
                        #expect(miss.text == direct.text, "\(path) as \(token == nil ? "anonymous" : "signed in")")
                        #expect(hit.text == direct.text, "\(path) from the cache")
                        #expect(hit.headers[.eTag] == direct.headers[.eTag], "\(path)")
                    }
                }
            }
            let searched = try await cached.send(.get, "/v1/search?q=%E6%AF%9B%E8%82%9A&limit=1").json()
            #expect(searched["nextCursor"] is String)
            #expect(
                (try await cached.send(.get, "/v1/search?q=%E6%AF%9B%E8%82%9A").json()["items"] as? [Any])?.count == 2)
        }
    }

    @Test func metricsCountHitsAndMisses() async throws {
        try await TestApp.run(configure: { $0.cacheEnabled = true }) { client, app in
            // setup
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "老灶", categoryID: category).id
            func counted(_ result: String) async throws -> Double {
                let text = try await client.send(.get, "/metrics").text
                let prefix = "chidian_cache_lookups_total{cache=\"reads\",result=\"\(result)\"} "
                let line = text.split(separator: "\n").first { $0.hasPrefix(prefix) }
                return line.flatMap { Double($0.dropFirst(prefix.count)) } ?? 0
            }
            let (hits, misses, offs) = (try await counted("hit"), try await counted("miss"), try await counted("off"))
            // MUT: a first read misses (or counts `off` while a loaded machine delays the listener's heartbeat
            // past the freshness bound); later reads hit once the entry is in (other suites only add to the counters)
            #expect(try await client.send(.get, "/v1/stores/\(id)").status == .ok)
            let missed = try await counted("miss") + counted("off") >= misses + offs + 1
            var hit = false
            while !hit {
                #expect(try await client.send(.get, "/v1/stores/\(id)").status == .ok)
                hit = try await counted("hit") > hits
                // timing: no bound: read again until one hits (a listener that never serves is a hang to name)
                if !hit { try await Task.sleep(for: .milliseconds(100)) }
            }
            // validate
            #expect(missed)
            #expect(hit)
            #expect(try await client.send(.get, "/metrics").text.contains("chidian_cache_bytes{cache=\"reads\"}"))
        }
    }

    @Test func aSessionEndsAtOnceAndARoleChangeAppliesAtOnce() async throws {
        try await TestApp.run { client, app in
            // setup
            let eater = try await client.register("食客")
            let category = try await StoreFixture.category(app, "火锅")
            #expect(try await client.send(.get, "/v1/me", token: eater.token).status == .ok)
            let refused = try await client.send(
                .post, "/v1/stores", body: ["name": "店", "categoryId": category], token: eater.token)
            #expect(refused.status == .forbidden)
            // MUT: an admin's role change from the CLI (beside the server), then a logout through it
            try await app.database.query("UPDATE users SET role = 'manager' WHERE id = \(eater.id)")
            await app.settle()
            let opened = try await client.send(
                .post, "/v1/stores", body: ["name": "店", "categoryId": category], token: eater.token)
            let logout = try await client.send(.post, "/v1/auth/logout", token: eater.token)
            let after = try await client.send(.get, "/v1/me", token: eater.token)
            // validate
            #expect(opened.status == .created)
            #expect(logout.status == .noContent)
            #expect(after.status == .unauthorized && after.problemCode == "invalid_token")
        }
    }

    /// The promise for writes beside a server (the CLI, `psql`, another server): every server shows them within
    /// 0.9 s of their commit, with no fence. Not a race against a timer: past 0.9 s a cache either heard a heartbeat
    /// sent after the commit (so the invalidation before it) or serves nothing.
    @Test func aWriteBesideTheServerShowsWithinTheBound() async throws {
        try await TestApp.run { client, app in
            // setup: the store page is cached
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "老灶", categoryID: category).id
            #expect(try await client.send(.get, "/v1/stores/\(id)").json()["name"] as? String == "老灶")
            // MUT: `chidian store archive`'s work, then the bound
            #expect(try await StoreAdmin(database: app.database).archiveStore(id: id))
            // timing: the promise's own bound, a lower one: a slow machine only lengthens the wait, and past it a
            // cache either heard the invalidation or serves nothing
            try await Task.sleep(for: .milliseconds(950))
            // validate
            let after = try await client.send(.get, "/v1/stores/\(id)")
            #expect(after.status == .notFound && after.problemCode == "store_not_found")
        }
    }
}
