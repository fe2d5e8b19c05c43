import Foundation

/// The rules of uploading images (size, type, pixels, the daily quota) and of reading them, through the cache;
/// for the API and the web.
package struct ImageService: Sendable {
    package let images: ImageRepository
    package let buckets: RateBuckets
    /// Valid uploads one user may make in a day (a fixed window shared by every server process).
    package let uploadsPerDay: Int
    /// Hot images' first slice (all of most images); nil with `CACHE=off`.
    package let cache: ReadCache?

    package init(images: ImageRepository, buckets: RateBuckets, uploadsPerDay: Int, cache: ReadCache? = nil) {
        self.images = images
        self.buckets = buckets
        self.uploadsPerDay = uploadsPerDay
        self.cache = cache
    }

    package static let tooLarge = Problem(
        .contentTooLarge, "image_too_large", "Images may be at most \(ImageFormat.maxBytes / 1024 / 1024) MiB.")

    /// Bytes are read from the database in slices of this size: a small image is one statement, a large one
    /// never sits whole in memory.
    package static let slice = 1 << 20

    /// An upload's rules (size, type, pixels, the daily quota) and its row, for the API and the web client alike.
    package func store(_ bytes: [UInt8], user: AuthUser) async throws -> ImageView {
        guard bytes.count <= ImageFormat.maxBytes else { throw Self.tooLarge }
        let info: ImageFormat.Info
        do {
            info = try ImageFormat.inspect(bytes)
        } catch .unsupported {
            throw Problem(
                .unsupportedMediaType, "unsupported_media_type", "Only JPEG, PNG, WebP and GIF images are accepted.")
        } catch .invalid(let reason) {
            throw Problem.badRequest("invalid_image", reason)
        }
        if let wait = try await buckets.take(
            [.init("uploads-day|\(user.id)", limit: uploadsPerDay)], windowSeconds: 86_400)
        {
            throw Problem.rateLimited(retryAfter: wait)
        }
        return try await images.create(bytes: bytes, info: info, uploaderID: user.id)
    }

    /// The image, from the cache when it holds it. Without a cache, a conditional request reads no bytes.
    package func stored(id: String, conditional: Bool) async throws -> ImageRepository.Stored? {
        guard let cache else { return try await images.stored(id: id, head: conditional ? 0 : Self.slice) }
        guard PlausibleID.check(id) else { return nil }
        let images = self.images
        do {
            return try await cache.entry(
                "i:\(id)", tags: { _ in ["i:\(id)"] },
                cost: { $0.cost },
                load: {
                    guard let stored = try await images.stored(id: id, head: Self.slice) else { throw NoSuchImage() }
                    return stored.compacted()
                }
            ).value
        } catch is NoSuchImage {
            return nil
        }
    }

    /// `If-None-Match` uses the weak comparison: `*`, or any listed tag equal to ours ignoring `W/`.
    package static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { raw in
            var tag = raw.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}

/// No such image: thrown out of the cache's shared read so that nothing is kept (a row without bytes may get them
/// later, from `chidian images load`).
private struct NoSuchImage: Error {}
