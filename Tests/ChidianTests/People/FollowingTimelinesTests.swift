import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The following feed's first page from memory (`FollowingTimelines`, migration 025): the merge, and every page
/// equal to the statement's after each kind of write, with the timelines really used and dropped only by their own
/// author's reviews and the reader's follows.
@Suite struct FollowingTimelinesTests {
    typealias Timeline = FollowingTimelines.Timeline

    static func timeline(_ micros: [Int64], complete: Bool) -> Timeline {
        Timeline(heads: micros.map { .init(micros: $0, id: "r\($0)") }, complete: complete)
    }

    @Test func theMergeTakesTheNewestAndGivesUpWhenAKeptTimelineRunsOut() {
        let a = Self.timeline([90, 50, 10], complete: true)
        let b = Self.timeline([80, 70, 60], complete: false)
        // validate: newest first across both
        #expect(FollowingTimelines.merge([a, b], count: 4) == ["r90", "r80", "r70", "r60"])
        // b's last kept head is the last one taken: still exact (its unkept reviews are older)
        #expect(FollowingTimelines.merge([b], count: 3) == ["r80", "r70", "r60"])
        // one more would need a review b's timeline does not keep
        #expect(FollowingTimelines.merge([a, b], count: 5) == nil)
        // a complete timeline running out is the end of it
        #expect(FollowingTimelines.merge([a], count: 5) == ["r90", "r50", "r10"])
        #expect(FollowingTimelines.merge([], count: 3) == [])
        // equal times: the larger id first, as the statement's ORDER BY
        let tie = Timeline(heads: [.init(micros: 5, id: "b")], complete: true)
        let other = Timeline(heads: [.init(micros: 5, id: "a")], complete: true)
        #expect(FollowingTimelines.merge([other, tie], count: 2) == ["b", "a"])
    }

    /// Every page of the reader's feed (limits 1, 2, 20 and 21, cursors followed), as bytes.
    static func pages(_ client: some TestClientProtocol, _ token: String) async throws -> [String: String] {
        var pages: [String: String] = [:]
        for limit in [1, 2, 20, 21] {
            var cursor: String? = nil
            var page = 0
            repeat {
                let path =
                    "/v1/feed/following?limit=\(limit)"
                    + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
                        ?? "")
                let response = try await client.send(.get, path, token: token)
                #expect(response.status == .ok)
                pages["limit \(limit) page \(page)"] = response.text
                cursor = try response.json()["nextCursor"] as? String
                page += 1
            } while cursor != nil && page < 40
        }
        return pages
    }

    /// `silent`: more people followed who never post, so the list is long enough to keep its merged page too.
    @Test(arguments: [0, FollowingTimelines.keptFrom])
    func cachedFirstPagesEqualTheStatementAfterEveryWrite(silent: Int) async throws {
        // Every write is fenced, so the listener has applied it before a read: a long freshness keeps a loaded
        // machine's late heartbeat from turning the cache off between a page and the checks of what it kept.
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { cached, app in
            // setup: a reader following two authors; a stranger nobody follows; two stores
            let plain = app.uncached()
            let caching = try #require(app.services.caching)
            let manager = try await cached.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "面馆")
            let stores = [
                try await StoreFixture.store(cached, manager, name: "兰州拉面", categoryID: category).id,
                try await StoreFixture.store(cached, manager, name: "重庆小面", categoryID: category).id,
            ]
            let reader = try await cached.register("读者")
            let authors = [
                try await cached.register("甲"), try await cached.register("乙"), try await cached.register("丙"),
            ]
            let stranger = try await cached.register("路人")
            for author in authors.prefix(2) {
                _ = try await cached.send(.put, "/v1/users/\(author.id)/follow", token: reader.token)
            }
            try await app.database.query(
                """
                WITH quiet AS (
                    INSERT INTO users (name, password_hash, role) SELECT '静' || n, '$2b$04$unusable', 'user' FROM generate_series(1, \(silent)) n
                    RETURNING id
                )
                INSERT INTO follows (follower_id, followee_id) SELECT \(reader.id), id FROM quiet
                """)
            await app.settle()
            @Sendable func review(_ author: Session, _ store: Int, _ body: String) async throws {
                try await app.database.query(
                    """
                    INSERT INTO comments (kind, store_id, author_id, rating, body)
                    VALUES ('review', \(stores[store]), \(author.id), 4, \(body))
                    """)
            }
            /// `liker` likes `author`'s newest review through the API.
            @Sendable func likeNewest(of author: Session, by liker: Session) async throws {
                let id = try await app.database.query(
                    "SELECT id FROM comments WHERE author_id = \(author.id) ORDER BY created_at DESC LIMIT 1"
                ).map { try $0.decode(String.self) }[0]
                let liked = try await cached.send(.put, "/v1/comments/\(id)/like", token: liker.token)
                #expect(liked.status.code < 300)
            }
            // 乙 writes more than a timeline keeps, so pages past it come from the statement.
            for n in 0..<24 { try await review(authors[1], n % 2, "乙的第\(n)条") }
            try await review(authors[0], 0, "甲的第一条")
            let writes: [(String, @Sendable () async throws -> Void)] = [
                ("甲 posts", { try await review(authors[0], 1, "甲的第二条") }),
                ("a stranger posts", { try await review(stranger, 0, "路人的") }),
                (
                    "a notice",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comments (kind, store_id, author_id, body)
                            VALUES ('notice', \(stores[0]), \(manager.id), '通知')
                            """)
                    }
                ),
                (
                    "an edit of the text",
                    { try await app.database.query("UPDATE comments SET body = '改过' WHERE body = '甲的第一条'") }
                ),
                (
                    "乙's newest hidden",
                    {
                        try await app.database.query(
                            "UPDATE comments SET hidden_at = now() WHERE body = '乙的第23条'")
                    }
                ),
                ("乙's oldest deleted", { try await app.database.query("DELETE FROM comments WHERE body = '乙的第0条'") }),
                (
                    "a store archived",
                    {
                        try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(stores[1])")
                    }
                ),
                (
                    "and restored",
                    { try await app.database.query("UPDATE stores SET archived_at = NULL WHERE id = \(stores[1])") }
                ),
                (
                    "the reader follows 丙, who has not written",
                    {
                        try await app.database.query(
                            "INSERT INTO follows (follower_id, followee_id) VALUES (\(reader.id), \(authors[2].id))")
                    }
                ),
                ("丙 posts", { try await review(authors[2], 0, "丙的") }),
                // A liked card is written for its reader; the others are copied from the kept JSON.
                ("the reader likes 甲's newest", { try await likeNewest(of: authors[0], by: reader) }),
                ("a stranger likes 丙's", { try await likeNewest(of: authors[2], by: stranger) }),
                (
                    "the reader unfollows 乙",
                    {
                        try await app.database.query(
                            "DELETE FROM follows WHERE follower_id = \(reader.id) AND followee_id = \(authors[1].id)")
                    }
                ),
            ]
            try await plain.test(.router) { uncached in
                _ = try await Self.pages(cached, reader.token)
                // validate: the first page came from the timelines, which are now kept
                #expect(caching.reads.get("t:\(authors[0].id)", as: Timeline.self) != nil)
                #expect(caching.reads.get("fl:\(reader.id)", as: [String].self) != nil)
                let merged = caching.reads.get("fm:\(reader.id):21", as: [FollowingTimelines.Head]?.self)
                #expect((merged != nil) == (silent > 0), "a long list keeps its merged page, a short one does not")
                // and its cards from the reviews kept as everyone sees them
                let newest = try await app.database.query(
                    "SELECT id FROM comments WHERE author_id = \(authors[0].id) ORDER BY created_at DESC LIMIT 1"
                ).map { try $0.decode(String.self) }
                #expect(caching.reads.get("cm:\(try #require(newest.first))", as: CommentView.self) != nil)
                for (label, write) in writes {
                    let before = caching.reads.get("t:\(authors[0].id)", as: Timeline.self)
                    // MUT: the write beside the server, heard by it
                    try await write()
                    await app.settle()
                    // validate: every page as the statement reads it, twice (a miss, then a hit)
                    let truth = try await Self.pages(uncached, reader.token)
                    for _ in 0..<2 {
                        let served = try await Self.pages(cached, reader.token)
                        #expect(served.keys.sorted() == truth.keys.sorted(), "after \(label)")
                        for (page, text) in truth { #expect(served[page] == text, "after \(label): \(page)") }
                    }
                    // and 甲's timeline went only when 甲's reviews changed
                    let after = caching.reads.get("t:\(authors[0].id)", as: Timeline.self)
                    if label == "a stranger posts" || label == "a notice" || label == "an edit of the text" {
                        #expect(before != nil && after === before, "after \(label)")
                    }
                }
            }
        }
    }
}
