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

/// A store's reviews page is kept deflated in the read cache and sent as the statement would write it: to visitors,
/// to a viewer who liked some of it, and again after a write drops it.
@Suite struct StoreReviewsPageCacheTests {
    @Test func theKeptPageIsDeflatedAndEveryViewerGetsTheBytesTheStatementGives() async throws {
        try await TestApp.run(configure: { $0.cacheFreshness = .seconds(300) }) { client, app in
            // setup: three reviews, one liked by a second user
            let world = try await CommentWorld.make(client, app)
            var ids: [String] = []
            for (rating, text) in [(5, "毛肚很新鲜"), (3, "排队太久"), (4, "\"鸳鸯锅\" <推荐>")] {
                ids.append(try #require(try await world.review(rating, text)["id"] as? String))
            }
            let fan = try await client.register("路人甲")
            #expect(try await client.send(.put, "/v1/comments/\(ids[1])/like", token: fan.token).status.code < 300)
            let path = "/v1/stores/\(world.storeID)/comments"
            // MUT: a visitor's read fills the cache; a second visitor's and the fan's read from it
            let first = try await client.send(.get, path)
            let second = try await client.send(.get, path)
            let fans = try await client.send(.get, path, token: fan.token)
            // validate: kept deflated with the cache on; the same bytes as the statement's page, liked marked
            if let reads = app.services.caching?.reads {
                let kept = try #require(
                    reads.get("c:\(world.storeID):all:newest:20:", as: RenderedComments.self)?.value)
                guard case .deflated(let deflated) = kept.body else {
                    Issue.record("the page is not kept deflated")
                    return
                }
                #expect(deflated.stream.count < deflated.size)
            }
            // the statement's page, read without the cache
            let statement = try await CommentRepository(database: app.database).storeComments(
                storeID: world.storeID, kind: nil, sort: CommentSort.newest, page: PageRequest(limit: 20))
            #expect(first.text == String(decoding: try JSONWriter.bytes(of: statement), as: UTF8.self))
            #expect(second.text == first.text && second.headers[.eTag] == first.headers[.eTag])
            let marked = try await CommentLikes(database: app.database).mark(statement, viewerID: fan.id)
            #expect(fans.text == String(decoding: try JSONWriter.bytes(of: marked), as: UTF8.self))
            #expect(fans.text.contains("\"liked\":true") && !first.text.contains("\"liked\":true"))
            // a new review drops the kept page: the next read has it
            _ = try await world.review(2, "汤底偏咸")
            #expect(try await client.send(.get, path).text.contains("汤底偏咸"))
        }
    }

    @Test func aClientTakingGzipGetsTheKeptPageAsItIsWithATagOfItsOwn() async throws {
        try await TestApp.run(configure: { $0.cacheFreshness = .seconds(300) }) { client, app in
            // setup: a store with two reviews, its page read once (kept)
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(5, "牛油锅底很香")
            _ = try await world.review(4, "服务热情")
            let path = "/v1/stores/\(world.storeID)/comments"
            let plain = try await client.send(.get, path)
            let plainTag = try #require(plain.headers[.eTag])
            // MUT: as an app asks, taking gzip
            let zipped = try await client.send(.get, path, headers: [.acceptEncoding: "gzip"])
            // validate: gzip of the same bytes under its own tag with the cache on; the plain page with it off
            guard app.services.caching != nil else {
                #expect(zipped.headers[.contentEncoding] == nil && zipped.text == plain.text)
                return
            }
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[.vary] == "Authorization, Accept-Encoding")
            var input = zipped.body
            var output = ByteBufferAllocator().buffer(capacity: 64 * 1024)
            try input.decompress(to: &output, with: .gzip())
            #expect(String(buffer: output) == plain.text)
            let zippedTag = try #require(zipped.headers[.eTag])
            #expect(zippedTag != plainTag && zippedTag.hasSuffix("-gzip\""))
            // either tag says the page has not changed
            for tag in [plainTag, zippedTag] {
                let again = try await client.send(
                    .get, path, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
                #expect(again.status == .notModified, "\(tag)")
            }
            // a new review: the old tags no longer match
            _ = try await world.review(3, "略贵")
            let changed = try await client.send(
                .get, path, headers: [.acceptEncoding: "gzip", .ifNoneMatch: zippedTag])
            #expect(changed.status == .ok && changed.headers[.eTag] != zippedTag)
        }
    }
}
