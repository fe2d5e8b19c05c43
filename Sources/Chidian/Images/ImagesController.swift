import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Images" routes.
struct ImagesController {
    let images: ImageRepository
    let buckets: RateBuckets
    /// Valid uploads one user may make in a day (a fixed window shared by every server process).
    let uploadsPerDay: Int
    /// Hot images' first slice (all of most images); nil with `CACHE=off`.
    var cache: ReadCache? = nil

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("images", use: upload)
        group.get("images/:id", use: serve)
    }

    /// Room for multipart framing around a file of the maximum size.
    static let bodyLimit = ImageFormat.maxBytes + 64 * 1024

    /// Raw bytes, or `multipart/form-data` with field `file`. The bytes decide the type, never the header.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<ImageView> {
        let user = try context.requireUser()
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: Self.bodyLimit)
        } catch is NIOTooManyBytesError {
            throw Self.tooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Self.tooLarge
        }
        var bytes = Array(buffer.readableBytesView)
        if let contentType = request.headers[.contentType], Multipart.isFormData(contentType) {
            let boundary = try Multipart.boundary(contentType: contentType)
            guard let file = try Multipart.field("file", in: bytes, boundary: boundary) else {
                throw Problem.badRequest("invalid_image", "The multipart body has no field named file.")
            }
            bytes = Array(file)
        }
        let view = try await store(bytes, user: user)
        return JSONResponse(view, status: .created, headers: [.location: view.url])
    }

    /// An upload's rules (size, type, pixels, the daily quota) and its row, for the API and the web client alike.
    func store(_ bytes: [UInt8], user: AuthUser) async throws -> ImageView {
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

    static let tooLarge = Problem(
        .contentTooLarge, "image_too_large", "Images may be at most \(ImageFormat.maxBytes / 1024 / 1024) MiB.")

    /// Bytes are read from the database in slices of this size: a small image is one statement, a large one
    /// never sits whole in memory.
    static let slice = 1 << 20

    /// The bytes, immutable for a year under their hash; `If-None-Match` answers 304 without reading them.
    @Sendable func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        guard let stored = try await stored(id: id, conditional: !ifNoneMatch.isEmpty) else {
            throw Problem.notFound("image_not_found", "No image \(id.prefix(64)).")
        }
        let etag = "\"\(ImageDigest.hex(stored.sha256))\""
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            // Served bytes are never a document that can run script, whatever a browser guesses.
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        if !ifNoneMatch.isEmpty, Self.matches(ifNoneMatch.joined(separator: ","), etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = stored.contentType
        if let head = stored.head, head.readableBytes == stored.byteCount {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: head))
        }
        let images = self.images
        let body = ResponseBody(contentLength: stored.byteCount) { writer in
            var offset = 0
            if let head = stored.head {
                offset = head.readableBytes
                try await writer.write(head)
            }
            while offset < stored.byteCount {
                let next = try await images.slice(sha256: stored.sha256, offset: offset, length: Self.slice)
                guard next.readableBytes > 0 else { throw ImageBytesMissing() }
                offset += next.readableBytes
                try await writer.write(next)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The image, from the cache when it holds it. Without a cache, a conditional request reads no bytes.
    func stored(id: String, conditional: Bool) async throws -> ImageRepository.Stored? {
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
    static func matches(_ header: String, etag: String) -> Bool {
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
