import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Issue 44: a store page's body is rendered once for every visitor and kept under the tags of what it shows, so
/// each write to any of it shows on the next visitor's page; a signed-in viewer's page is their own.
@Suite struct WebStorePageCacheTests {
    @Test func visitorsShareOneRenderedBodyThatEveryWriteToWhatItShowsDrops() async throws {
        // Every write is fenced (the API's, and `settle` after SQL), so a long freshness only keeps a loaded machine's
        // late heartbeat from turning the cache off between the visitor's read and the check that it was shared.
        try await TestApp.run(configure: { $0.cacheFreshness = .seconds(300) }) { client, app in
            // setup: a store with one review, read by a visitor
            let world = try await CommentWorld.make(client, app)
            let review = try #require(try await world.review(4, "第一条评价")["id"] as? String)
            let path = "/stores/\(world.storeID)"
            func visitorPage() async throws -> String {
                let page = try await WebBrowser(client).get(path)
                #expect(page.status == .ok)
                return page.text
            }
            #expect(try await visitorPage().contains("第一条评价"))
            let key = "h:store:\(world.storeID):newest:20::zh-CN"
            if let reads = app.services.caching?.reads {
                #expect(reads.get(key, as: RenderedPieces.Piece.self) != nil, "the visitor's body is not shared")
            }
            // MUT + validate: each write shows on the next visitor's page
            let other = try await client.register("路人")
            _ = try await world.review(2, "第二条评价", as: other)
            #expect(try await visitorPage().contains("第二条评价"))
            let liked = try await client.send(.put, "/v1/comments/\(review)/like", token: other.token)
            #expect(liked.status.code < 300)
            #expect(try await visitorPage().contains("data-count=\"1\""))
            let replied = try await client.send(
                .put, "/v1/comments/\(review)/reply", body: ["body": "谢谢光临"], token: world.manager.token)
            #expect(replied.status.code < 300)
            #expect(try await visitorPage().contains("谢谢光临"))
            let renamed = try await client.send(.patch, "/v1/me", body: ["name": "美食家"], token: world.user.token)
            #expect(renamed.status == .ok)
            #expect(try await visitorPage().contains(">美食家</a>"))
            try await app.database.query("UPDATE stores SET name = '小龙坎老火锅' WHERE id = \(world.storeID)")
            await app.settle()
            #expect(try await visitorPage().contains("<h1>小龙坎老火锅</h1>"))
            // a signed-in viewer gets their own page: like buttons with their token, never shared with visitors
            let browser = WebBrowser(client)
            _ = try await browser.get("/login")
            let signedIn = try await browser.post("/login", ["name": "路人", "password": "correct horse"])
            #expect(signedIn.status == .seeOther)
            let own = try await browser.get(path).text
            let csrf = try #require(browser.cookie("chidian_csrf"))
            #expect(own.contains("/comments/\(review)/unlike") && own.contains(csrf))
            let visitor = try await visitorPage()
            #expect(!visitor.contains("/comments/\(review)/unlike") && !visitor.contains("/comments/\(review)/like\""))
            #expect(!visitor.contains(csrf) && !visitor.contains(">路人</a></nav>"))
        }
    }

    @Test func aVisitorsPageKeepsItsPiecesNotWhatThePiecesWereDrawnFrom() async throws {
        // The cache's budget holds more pages when a page's pieces are kept and the lists and counts they were
        // rendered from are not (the also-viewed ids, the popular-times counts).
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: a store read by a visitor
            let world = try await CommentWorld.make(client, app)
            let reads = try #require(app.services.caching?.reads)
            let timeZone = try #require(
                try await app.database.query("SELECT time_zone FROM stores WHERE id = \(world.storeID)").first?
                    .decode(String.self))
            reads.invalidate("s:" + world.storeID)  // what the setup's reads kept
            let before = PopularTimesRepository.slot(ServerClock.now(), PopularTimesRepository.pageFreshness)
            // MUT
            #expect(try await WebBrowser(client).get("/stores/\(world.storeID)").status == .ok)
            let after = PopularTimesRepository.slot(ServerClock.now(), PopularTimesRepository.pageFreshness)
            // validate: the pieces are kept, with the store's card in the page's; their sources are not
            #expect(reads.get("h:also:\(world.storeID):zh-CN", as: RenderedPieces.Piece.self) != nil)
            let main = reads.get("h:store:\(world.storeID):newest:20::zh-CN", as: RenderedPieces.Piece.self)
            #expect((main?.value.extra as? StoreCard)?.id == world.storeID, "the store's card is not kept in its piece")
            #expect(reads.get("s:" + world.storeID, as: StoreCard.self) == nil)
            #expect(reads.get("v:\(world.storeID):10", as: [String].self) == nil)
            for slot in Set([before, after]) {
                #expect(reads.get("pt:\(world.storeID):\(timeZone):300:\(slot)", as: PopularTimes.self) == nil)
            }
        }
    }

    @Test func aBrowserTakingGzipGetsTheSamePageAsKeptAndOthersGetItPlain() async throws {
        try await TestApp.run(configure: { $0.cacheFreshness = .seconds(300) }) { client, app in
            // setup: a store with a review whose text needs escaping, read once by a visitor (its pieces kept)
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(5, "<b>好吃</b> & 实惠")
            let path = "/stores/\(world.storeID)"
            let browser = WebBrowser(client)
            let plain = try await browser.get(path)
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            // MUT: the same visitor again, taking gzip as Chromium does
            let zipped = try await browser.get(path, headers: [.acceptEncoding: "gzip, deflate, br, zstd"])
            // validate: with the cache on the pieces go as kept, inside one gzip member that reads back to the page
            #expect(zipped.status == .ok)
            #expect(zipped.headers[.vary]?.contains("Accept-Encoding") == true)
            if app.services.caching != nil {
                #expect(zipped.headers[.contentEncoding] == "gzip")
                var input = zipped.body
                var output = ByteBufferAllocator().buffer(capacity: 64 * 1024)
                try input.decompress(to: &output, with: .gzip())
                #expect(String(buffer: output) == plain.text)
                let kept = try #require(
                    app.services.caching?.reads.get(
                        "h:store:\(world.storeID):newest:20::zh-CN", as: RenderedPieces.Piece.self))
                let sent = Array(zipped.body.readableBytesView)
                let stream = kept.value.deflated.stream
                #expect(
                    sent.indices.contains { sent[$0...].starts(with: stream) }, "the kept piece was not sent as kept")
                #expect(plain.text.contains("&lt;b&gt;好吃&lt;/b&gt; &amp; 实惠"))
            } else {
                #expect(zipped.headers[.contentEncoding] == nil && zipped.text == plain.text)
            }
            // a browser that refuses gzip gets the page as it is
            let refused = try await browser.get(path, headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil && refused.text == plain.text)
        }
    }
}
