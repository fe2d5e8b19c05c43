import HTTPTypes
import Hummingbird

/// `GET /openapi.json`: the document, built once per process.
struct OpenAPIController {
    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
        }
    }
}
