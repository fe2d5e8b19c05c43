import Foundation
import HTTPTypes
import HummingbirdTesting
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
}
