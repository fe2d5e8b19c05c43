import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Images" routes.
struct ImagesController {
    let service: ImageService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("images", use: upload)
        group.get("images/:id", use: serve)
    }

    /// Room for multipart framing around a file of the maximum size.
    static let bodyLimit = ImageFormat.maxBytes + 64 * 1024

    /// Raw bytes, or `multipart/form-data` with field `file`. The bytes decide the type, never the header.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        ImageView
    > {
        let user = try context.requireUser()
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: Self.bodyLimit)
        } catch is NIOTooManyBytesError {
            throw ImageService.tooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ImageService.tooLarge
        }
        var bytes = Array(buffer.readableBytesView)
        if let contentType = request.headers[.contentType], Multipart.isFormData(contentType) {
            let boundary = try Multipart.boundary(contentType: contentType)
            guard let file = try Multipart.field("file", in: bytes, boundary: boundary) else {
                throw Problem.badRequest("invalid_image", "The multipart body has no field named file.")
            }
            bytes = Array(file)
        }
        let view = try await service.store(bytes, user: user)
        return JSONResponse(view, status: .created, headers: [.location: view.url])
    }

    /// The bytes, immutable for a year under their hash; `If-None-Match` answers 304 without reading them.
    @Sendable func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        guard let stored = try await service.stored(id: id, conditional: !ifNoneMatch.isEmpty) else {
            throw Problem.notFound("image_not_found", "No image \(id.prefix(64)).")
        }
        let etag = "\"\(ImageDigest.hex(stored.sha256))\""
        var headers: HTTPFields = [
            .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
            // Served bytes are never a document that can run script, whatever a browser guesses.
            .contentSecurityPolicy: "default-src 'none'; sandbox",
        ]
        if !ifNoneMatch.isEmpty, ImageService.matches(ifNoneMatch.joined(separator: ","), etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = stored.contentType
        if let head = stored.head, head.readableBytes == stored.byteCount {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: head))
        }
        let images = service.images
        let body = ResponseBody(contentLength: stored.byteCount) { writer in
            var offset = 0
            if let head = stored.head {
                offset = head.readableBytes
                try await writer.write(head)
            }
            while offset < stored.byteCount {
                let next = try await images.slice(sha256: stored.sha256, offset: offset, length: ImageService.slice)
                guard next.readableBytes > 0 else { throw ImageBytesMissing() }
                offset += next.readableBytes
                try await writer.write(next)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
