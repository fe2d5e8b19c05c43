import ChidianCore
import HTTPTypes
import Hummingbird

/// `GET /openapi.json`: the document, built once per process.
package struct OpenAPIController {
    package init() {}

    package func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
    }
}
