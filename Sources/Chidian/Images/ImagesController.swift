import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Images" routes.
struct ImagesController {
    let images: ImageRepository
    let store: ImageStore

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
        let digest = ImageStore.sha256(bytes)
        // The file first: a row never names bytes that are not on disk.
        try await store.save(bytes, sha256: digest)
        let view = try await images.create(info: info, sha256: digest, byteCount: bytes.count, uploaderID: user.id)
        return JSONResponse(view, status: .created, headers: [.location: view.url])
    }

    static let tooLarge = Problem(
        .contentTooLarge, "image_too_large", "Images may be at most \(ImageFormat.maxBytes / 1024 / 1024) MiB.")

    /// The bytes, immutable for a year under their hash; `If-None-Match` answers 304 without a body.
    @Sendable func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let stored = try await images.stored(id: id) else {
            throw Problem.notFound("image_not_found", "No image \(id.prefix(64)).")
        }
        let etag = "\"\(ImageStore.hex(stored.sha256))\""
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            // Served bytes are never a document that can run script, whatever a browser guesses.
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty, Self.matches(ifNoneMatch.joined(separator: ","), etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = stored.contentType
        let body: ResponseBody
        do {
            body = try await FileIO().loadFile(path: store.path(sha256: stored.sha256), context: context)
        } catch {
            context.logger.error("image file missing", metadata: ["image": .string(id)])
            throw Problem(.internalServerError, "internal_error", "The image's bytes are unavailable.")
        }
        return Response(status: .ok, headers: headers, body: body)
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
