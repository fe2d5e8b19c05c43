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

/// Hot images served from memory (`Caching.images`), against the real PostgreSQL: a hit reads nothing, the cap
/// holds, a deleted image is never served, and `CACHE=off` reads every time.
@Suite struct ImageCacheTests {
    /// A cache that stays live for an hour without a listener, so what it serves depends on nothing but its entries.
    static func live(_ capacity: Int) -> ReadCache {
        let cache = ReadCache(name: "images-test", capacityBytes: capacity, freshness: .seconds(3600))
        cache.heard(sentAt: Monotonic.nanoseconds)
        return cache
    }

    static func controller(_ app: TestApp, cache: ReadCache?) -> ImageService {
        ImageService(
            images: ImageRepository(database: app.database), buckets: RateBuckets(database: app.database),
            uploadsPerDay: 100, cache: cache)
    }

    static func upload(_ client: any TestClientProtocol, _ bytes: [UInt8], token: String) async throws -> String {
        let response = try await client.upload(bytes, token: token)
        #expect(response.status == .created, "\(response.text)")
        return try #require(try response.json()["id"] as? String)
    }

    /// Rewrites a blob's bytes in place (same length): nothing in the product ever does, so nothing announces it,
    /// and whoever serves the old bytes afterwards did not read PostgreSQL.
    static func rewriteBlob(_ app: TestApp, of bytes: [UInt8], with other: [UInt8]) async throws {
        precondition(bytes.count == other.count)
        try await app.database.query(
            "UPDATE image_blobs SET bytes = \(Data(other)) WHERE sha256 = \(Data(ImageDigest.sha256(bytes)))")
    }

    @Test func aHitServesTheSameBytesWithoutReadingPostgreSQL() async throws {
        try await TestApp.run { client, app in
            // setup
            let user = try await client.register("拍照的人")
            let bytes = TestImages.png(width: 60, height: 40)
            let id = try await Self.upload(client, bytes, token: user.token)
            let cache = Self.live(1 << 20)
            let images = Self.controller(app, cache: cache)
            // MUT: a miss reads and keeps the image
            let first = try #require(try await images.stored(id: id, conditional: false))
            #expect(first.head.map { Array($0.readableBytesView) } == bytes)
            #expect(cache.count == 1)
            // The kept bytes are counted at their storage, not at what the connection's buffer held around them.
            #expect(try #require(first.head).storageCapacity == first.head?.capacity)
            #expect(cache.bytes >= bytes.count && cache.bytes < 2 * bytes.count + 1024)
            var changed = bytes
            changed[changed.count - 1] ^= 0xFF
            try await Self.rewriteBlob(app, of: bytes, with: changed)
            // validate: the hit serves what it kept; a server without the cache reads the changed bytes
            let hit = try #require(try await images.stored(id: id, conditional: false))
            #expect(hit.head.map { Array($0.readableBytesView) } == bytes)
            let uncached = try #require(try await Self.controller(app, cache: nil).stored(id: id, conditional: false))
            #expect(uncached.head.map { Array($0.readableBytesView) } == changed)
        }
    }

    @Test func concurrentMissesOfOneImageKeepOneEntry() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("拍照的人")
            let bytes = TestImages.png(width: 30, height: 30)
            let id = try await Self.upload(client, bytes, token: user.token)
            let cache = Self.live(1 << 20)
            let images = Self.controller(app, cache: cache)
            // MUT
            let served = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await images.stored(id: id, conditional: false)?.head.map { Array($0.readableBytesView) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // validate
            #expect(served.count == 16 && served.allSatisfy { $0 == bytes })
            #expect(cache.count == 1)
        }
    }

    @Test func theCapHoldsAndAnImageOverAnEighthOfItIsNotKept() async throws {
        try await TestApp.run { client, app in
            // setup: about 30 kB each (32 kB of storage), under an eighth of a 320 kB cap, which holds nine
            let user = try await client.register("拍照的人")
            var ids: [String] = []
            for n in 0..<12 {
                ids.append(try await Self.upload(client, TestImages.png(width: 100, height: 90 + n), token: user.token))
            }
            let cache = Self.live(320_000)
            let images = Self.controller(app, cache: cache)
            // MUT
            for id in ids {
                #expect(try await images.stored(id: id, conditional: false) != nil)
                #expect(cache.bytes <= 320_000)
            }
            // validate: the oldest left, the newest stayed
            #expect(cache.count >= 8 && cache.count < 12)
            let kept = cache.count
            let newest = try #require(ids.last)
            #expect(cache.get("i:\(newest)", as: ImageRepository.Stored.self) != nil)
            #expect(cache.get("i:\(ids[0])", as: ImageRepository.Stored.self) == nil)
            // 50 kB takes 64 kB of storage, over an eighth: served, not kept.
            let big = TestImages.png(width: 130, height: 130)
            let bigID = try await Self.upload(client, big, token: user.token)
            let served = try await images.stored(id: bigID, conditional: false)
            #expect(served?.head.map { Array($0.readableBytesView) } == big)
            #expect(cache.count == kept)
            #expect(cache.get("i:\(bigID)", as: ImageRepository.Stored.self) == nil)
        }
    }

    @Test func aDeletedImageIsNeverServedFromTheCache() async throws {
        try await TestApp.run { client, app in
            // setup: an upload nothing shows, read until the server's cache keeps it (it keeps nothing while its
            // listener is late, so try again until it does)
            let user = try await client.register("拍照的人")
            let bytes = TestImages.png(width: 20, height: 20)
            let id = try await Self.upload(client, bytes, token: user.token)
            while true {
                let served = try await client.send(.get, "/v1/images/\(id)")
                #expect(served.status == .ok && Array(served.body.readableBytesView) == bytes)
                guard let cache = app.services.caching?.images, cache.count == 0 else { break }
                // timing: a poll with no bound; it ends once the cache keeps the image
                try await Task.sleep(for: .milliseconds(50))
            }
            if let cache = app.services.caching?.images { #expect(cache.count == 1) }
            // MUT: housekeeping deletes it once it is a day old
            try await app.database.query(
                "UPDATE images SET created_at = now() - interval '2 days' WHERE id = \(id)")
            let report = try #require(try await Housekeeping.run(app.database))
            #expect(report.uploads == 1 && report.imageBlobs == 1)
            await app.settle()
            // validate: gone from the cache (migration 020's notice) and answered 404
            if let cache = app.services.caching?.images { #expect(cache.count == 0) }
            let after = try await client.send(.get, "/v1/images/\(id)")
            #expect(after.status == .notFound)
            #expect(after.problemCode == "image_not_found")
        }
    }

    @Test func aConditionalRequestStillAnswers304() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("拍照的人")
            let bytes = TestImages.png(width: 10, height: 10)
            let id = try await Self.upload(client, bytes, token: user.token)
            let etag = "\"\(ImageDigest.hex(ImageDigest.sha256(bytes)))\""
            // Cold (a miss) and warm (a hit, with the cache on).
            for _ in 0..<2 {
                let same = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: etag])
                #expect(same.status == .notModified && same.body.readableBytes == 0)
                #expect(same.headers[.eTag] == etag)
                let other = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: "\"other\""])
                #expect(other.status == .ok && Array(other.body.readableBytesView) == bytes)
            }
        }
    }

    @Test func withTheCacheOffEveryRequestReadsPostgreSQL() async throws {
        try await TestApp.run(configure: { $0.cacheEnabled = false }) { client, app in
            #expect(app.services.caching == nil)
            let user = try await client.register("拍照的人")
            let bytes = TestImages.png(width: 40, height: 40)
            let id = try await Self.upload(client, bytes, token: user.token)
            let first = try await client.send(.get, "/v1/images/\(id)")
            #expect(Array(first.body.readableBytesView) == bytes)
            // MUT
            var changed = bytes
            changed[changed.count - 1] ^= 0xFF
            try await Self.rewriteBlob(app, of: bytes, with: changed)
            // validate
            let second = try await client.send(.get, "/v1/images/\(id)")
            #expect(second.status == .ok && Array(second.body.readableBytesView) == changed)
        }
    }
}
