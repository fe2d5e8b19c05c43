import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// The web client's stylesheet and scripts, from the binary. Pages link them with their content hash, so a
/// response may be cached for a year; a name we do not hold is 404.
package struct WebAssets {
    let pages: WebPages

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("assets/:name", use: asset)
        WebInstall(pages: pages).addRoutes(to: router)
    }

    @Sendable func asset(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard let asset = pages.assets[name] else {
            throw Problem(.notFound, "not_found", "No asset \(name).")
        }
        let etag = "\"\(asset.hash)\""
        var headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: etag,
            .cacheControl: "public, max-age=31536000, immutable",
        ]
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    package init(pages: WebPages) {
        self.pages = pages
    }
}
