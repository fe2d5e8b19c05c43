import Foundation
import Testing

@testable import ChidianClient

/// The rest of the document: an avatar and an image's bytes, and the operations routes.
@Suite(Demo.needsServer) struct OperationsTests {
    @Test func anAvatarFromAnUploadAndTheImagesBytes() async throws {
        let client = try Demo.client()
        try await client.register(name: Demo.uniqueName("face"), password: "a long password")
        let png = try Demo.png("s004_1")
        let uploaded = try await client.uploadImage(png, type: .png)
        // MUT
        let user = try await client.setAvatar(imageId: uploaded.id)
        let image = try await Demo.client().image(try #require(user.avatarUrl))
        // validate
        #expect(user.avatarUrl == uploaded.url && image.type == .png && image.data == png)
        #expect(try await client.me().avatarUrl == uploaded.url)
        let missing = try await Demo.refusal { try await client.setAvatar(imageId: "no_such_image") }
        #expect(missing.code == .imageNotFound || missing.code == .invalidImages)
        let none = try await Demo.refusal { try await client.image("no_such_image") }
        #expect(none.code == .imageNotFound && none.status == 404)
    }

    @Test func healthReadinessMetricsAndTheDocument() async throws {
        let client = try Demo.client()
        // MUT
        let health = try await client.health()
        let ready = try await client.ready()
        let metrics = try await client.metrics()
        let document = try await client.openAPIDocument()
        // validate
        #expect(health == "ok" && ready.status == "ready")
        #expect(ready.pools.first?.role == .primary && ready.pools.first?.healthy == true)
        #expect(metrics.contains("# TYPE"))
        let object = try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any])
        let paths = try #require(object["paths"] as? [String: Any])
        #expect((object["openapi"] as? String)?.hasPrefix("3.1") == true && paths["/v1/pick"] != nil)
    }
}
