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

extension TestClientProtocol {
    /// Uploads raw bytes with a Content-Type.
    func upload(_ bytes: [UInt8], contentType: String? = "image/png", token: String?, headers: HTTPFields = [:])
        async throws -> TestResponse
    {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: "/v1/images", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
    }
}

@Suite struct ImageUploadTests {
    static let samples: [(name: String, bytes: [UInt8], type: String, width: Int, height: Int)] = [
        ("png", TestImages.png(width: 3, height: 2), "image/png", 3, 2),
        ("gif", TestImages.gif(width: 5, height: 4), "image/gif", 5, 4),
        ("jpeg", TestImages.jpeg16, "image/jpeg", 16, 16),
        ("webp lossy", TestImages.webpLossy, "image/webp", 1, 1),
        ("webp lossless", TestImages.webpLossless, "image/webp", 1, 1),
        ("webp extended", TestImages.webpExtended, "image/webp", 1, 1),
    ]

    @Test func everyTypeRoundTripsByteForByte() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("拍照的人")
            for sample in Self.samples {
                // MUT: the declared type is deliberately wrong; the bytes decide.
                let response = try await client.upload(sample.bytes, contentType: "image/png", token: user.token)
                // validate
                #expect(response.status == .created, "\(sample.name): \(response.text)")
                let body = try response.json()
                let id = try #require(body["id"] as? String)
                #expect(body["url"] as? String == "/v1/images/\(id)")
                #expect(response.headers[.location] == "/v1/images/\(id)")
                #expect(body["contentType"] as? String == sample.type, "\(sample.name)")
                #expect(body["width"] as? Int == sample.width, "\(sample.name)")
                #expect(body["height"] as? Int == sample.height, "\(sample.name)")
                #expect(body["bytes"] as? Int == sample.bytes.count)
                let served = try await client.send(.get, "/v1/images/\(id)")
                #expect(served.status == .ok)
                #expect(Array(served.body.readableBytesView) == sample.bytes, "\(sample.name)")
                #expect(served.headers[.contentType] == sample.type)
                #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(served.headers[.contentSecurityPolicy] == "default-src 'none'; sandbox")
                #expect(served.headers[.xContentTypeOptions] == "nosniff")
                let digest = ImageDigest.hex(ImageDigest.sha256(sample.bytes))
                #expect(served.headers[.eTag] == "\"\(digest)\"")
            }
            let owners = try await app.database.query("SELECT DISTINCT uploader_id FROM images")
            #expect(try owners.map { try $0.decode(String.self) } == [user.id])
        }
    }

    @Test func theSameBytesAreStoredOnceButEachUploadIsItsOwnImage() async throws {
        try await TestApp.run { client, app in
            let a = try await client.register("甲")
            let b = try await client.register("乙")
            let bytes = TestImages.png(width: 7, height: 7)
            let first = try await client.upload(bytes, token: a.token).json()["id"] as? String
            let second = try await client.upload(bytes, token: b.token).json()["id"] as? String
            #expect(first != nil && second != nil && first != second)
            let blobs = try await app.database.query(
                "SELECT sha256, byte_count FROM image_blobs"
            ).map { try $0.decode((Data, Int).self) }
            #expect(blobs.count == 1)
            #expect(blobs.first?.0 == Data(ImageDigest.sha256(bytes)) && blobs.first?.1 == bytes.count)
            // Each upload belongs to its uploader: b cannot attach a's image.
            let manager = try await client.register("老板", role: "manager")
            let category = try await CommentFixture.category(app, "面馆")
            let store = try await CommentFixture.store(app, name: "兰州拉面", categoryID: category, managerID: manager.id)
            let borrowed = try await client.send(
                .post, "/v1/stores/\(store)/comments", body: ["rating": 4, "body": "面好", "imageIds": [first!]],
                token: b.token)
            let own = try await client.send(
                .post, "/v1/stores/\(store)/comments", body: ["rating": 4, "body": "面好", "imageIds": [second!]],
                token: b.token)
            #expect(borrowed.problemCode == "invalid_images")
            #expect(own.status == .created)
            #expect(try own.json()["imageUrls"] as? [String] == ["/v1/images/\(second!)"])
        }
    }

    @Test func ifNoneMatchAnswers304WithoutABody() async throws {
        try await TestApp.run { client, _ in
            let user = try await client.register("缓存")
            let bytes = TestImages.gif(width: 2, height: 2)
            let id = try await client.upload(bytes, contentType: "image/gif", token: user.token).json()["id"] as! String
            let etag = try #require(try await client.send(.get, "/v1/images/\(id)").headers[.eTag])
            // MUT
            let same = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: etag])
            let listed = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: "\"abc\", W/\(etag)"])
            let star = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: "*"])
            let other = try await client.send(.get, "/v1/images/\(id)", headers: [.ifNoneMatch: "\"abc\""])
            // validate
            for response in [same, listed, star] {
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == etag)
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            #expect(other.status == .ok)
            #expect(Array(other.body.readableBytesView) == bytes)
        }
    }

    @Test func unknownImagesAreNotFound() async throws {
        try await TestApp.run { client, _ in
            for id in ["i_missing", String(repeating: "i", count: 200)] {
                let response = try await client.send(.get, "/v1/images/\(id)")
                #expect(response.status == .notFound)
                #expect(response.problemCode == "image_not_found")
            }
        }
    }

    @Test func uploadsNeedASignedInUser() async throws {
        try await TestApp.run { client, _ in
            let nobody = try await client.upload(TestImages.png(width: 1, height: 1), token: nil)
            let visitor = try await client.upload(
                TestImages.png(width: 1, height: 1), token: nil,
                headers: [HTTPField.Name("X-Visitor-Id")!: "visitor-12345"])
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            #expect(visitor.problemCode == "login_required")
        }
    }

    @Test func rejectedUploadsSayWhy() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("捣乱")
            let cases: [(String, [UInt8], String?, Int, String)] = [
                ("text", Array("just some text, not a picture".utf8), "text/plain", 415, "unsupported_media_type"),
                (
                    "text claiming png", Array("just some text, not a picture".utf8), "image/png", 415,
                    "unsupported_media_type"
                ),
                ("empty", [], "image/png", 400, "invalid_image"),
                ("empty, no type", [], nil, 400, "invalid_image"),
                (
                    "truncated png", Array(TestImages.png(width: 3, height: 2).prefix(18)), "image/png", 400,
                    "invalid_image"
                ),
                ("truncated jpeg", Array(TestImages.jpeg16.prefix(100)), "image/jpeg", 400, "invalid_image"),
                ("huge png", TestImages.png(width: 100_000, height: 100_000), "image/png", 400, "invalid_image"),
                (
                    "9 MiB", TestImages.png(width: 1, height: 1) + [UInt8](repeating: 0, count: 9 * 1024 * 1024),
                    "image/png", 413, "image_too_large"
                ),
                (
                    "8 MiB + 1", TestImages.padded(TestImages.png(width: 1, height: 1), to: 8 * 1024 * 1024 + 1),
                    "image/png", 413, "image_too_large"
                ),
            ]
            for (name, bytes, type, status, code) in cases {
                let response = try await client.upload(bytes, contentType: type, token: user.token)
                #expect(response.status.code == status, "\(name): \(response.text)")
                #expect(response.problemCode == code, "\(name)")
            }
            #expect(try await app.database.query("SELECT count(*)::int FROM images")[0].decode(Int.self) == 0)
        }
    }

    @Test func exactlyEightMiBIsAcceptedAndServedWholeInSlices() async throws {
        try await TestApp.run { client, _ in
            let user = try await client.register("大图")
            // Not a multiple of the slice size, and no two slices alike: a lost or repeated slice shows.
            var bytes = TestImages.padded(TestImages.png(width: 1, height: 1), to: 8 * 1024 * 1024)
            for index in 64..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 16) }
            let response = try await client.upload(bytes, token: user.token)
            #expect(response.status == .created)
            #expect(try response.json()["bytes"] as? Int == 8_388_608)
            let id = try #require(try response.json()["id"] as? String)
            let served = try await client.send(.get, "/v1/images/\(id)")
            #expect(served.status == .ok)
            #expect(served.body.readableBytes == bytes.count)
            #expect(Array(served.body.readableBytesView) == bytes)
            let odd = Array(bytes.prefix(ImageService.slice + 12_345))
            let second = try await client.upload(odd, token: user.token)
            let oddID = try #require(try second.json()["id"] as? String)
            #expect(Array(try await client.send(.get, "/v1/images/\(oddID)").body.readableBytesView) == odd)
        }
    }

    /// The bytes live in the database: a second application (another process, another working directory) on the
    /// same database serves what the first stored, with the same ETag.
    @Test func anotherServerOnTheSameDatabaseServesTheSameBytes() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("两台")
            let bytes = TestImages.png(width: 9, height: 4)
            let id = try #require(try await client.upload(bytes, token: user.token).json()["id"] as? String)
            let first = try await client.send(.get, "/v1/images/\(id)")
            let other = buildApplication(
                AppServices(config: app.services.config, database: app.database, logger: TestDatabase.logger),
                runDatabase: false)
            try await other.test(.router) { otherClient in
                let served = try await otherClient.send(.get, "/v1/images/\(id)")
                #expect(served.status == .ok)
                #expect(Array(served.body.readableBytesView) == bytes)
                #expect(served.headers[.eTag] == first.headers[.eTag])
                // and an upload through it is served by the first
                let token = try await otherClient.register("另一台").token
                let more = TestImages.gif(width: 2, height: 3)
                let otherID = try #require(
                    try await otherClient.upload(more, contentType: "image/gif", token: token).json()["id"] as? String)
                #expect(Array(try await client.send(.get, "/v1/images/\(otherID)").body.readableBytesView) == more)
            }
        }
    }

    @Test func aRowWhoseBytesWereNeverStoredIsNotFound() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("旧图")
            // A row from before the bytes moved into the database (the foreign key is NOT VALID for those).
            try await app.database.query("ALTER TABLE images DROP CONSTRAINT images_blob_fk")
            try await app.database.query(
                "INSERT INTO images (id, sha256, content_type, width, height, bytes, uploader_id) VALUES ('i_legacy', sha256('x'), 'image/png', 1, 1, 1, \(user.id))"
            )
            let response = try await client.send(.get, "/v1/images/i_legacy")
            #expect(response.status == .notFound)
            #expect(response.problemCode == "image_not_found")
        }
    }

    @Test func multipartUploadsTakeTheFileField() async throws {
        try await TestApp.run { client, _ in
            // setup
            let user = try await client.register("表单")
            let bytes = TestImages.jpeg16
            let boundary = "----ChidianBoundary7MA4YWxk"
            let body =
                Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n午饭\r\n".utf8)
                + Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"lunch.jpg\"\r\n".utf8)
                + Array("Content-Type: application/octet-stream\r\n\r\n".utf8) + bytes
                + Array("\r\n--\(boundary)--\r\n".utf8)
            // MUT
            let response = try await client.upload(
                body, contentType: "multipart/form-data; boundary=\(boundary)", token: user.token)
            let noFile = try await client.upload(
                Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--\(boundary)--\r\n"
                        .utf8),
                contentType: "multipart/form-data; boundary=\(boundary)", token: user.token)
            let noBoundary = try await client.upload(body, contentType: "multipart/form-data", token: user.token)
            let textFile = try await client.upload(
                Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nhello\r\n--\(boundary)--\r\n"
                        .utf8),
                contentType: "multipart/form-data; boundary=\(boundary)", token: user.token)
            // validate
            #expect(response.status == .created, "\(response.text)")
            let json = try response.json()
            #expect(json["contentType"] as? String == "image/jpeg")
            #expect(json["bytes"] as? Int == bytes.count)
            let served = try await client.send(.get, "/v1/images/\(json["id"] as! String)")
            #expect(Array(served.body.readableBytesView) == bytes)
            #expect(noFile.status == .badRequest)
            #expect(noFile.problemCode == "invalid_image")
            #expect(noBoundary.problemCode == "invalid_body")
            #expect(textFile.status.code == 415)
        }
    }

    @Test func aMultipartFileOverEightMiBIsTooLarge() async throws {
        try await TestApp.run { client, _ in
            let user = try await client.register("大表单")
            let boundary = "b0undary"
            let file = TestImages.png(width: 1, height: 1) + [UInt8](repeating: 0, count: 8 * 1024 * 1024)
            let body =
                Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n".utf8) + file
                + Array("\r\n--\(boundary)--\r\n".utf8)
            let response = try await client.upload(
                body, contentType: "multipart/form-data; boundary=\(boundary)", token: user.token)
            #expect(response.status.code == 413)
            #expect(response.problemCode == "image_too_large")
        }
    }
}

@Suite struct ImageFileLoaderTests {
    @Test func loadsTheBytesOfRowsFromTheFileEraAndSkipsWrongFiles() async throws {
        try await TestApp.run { client, app in
            // setup: two rows whose bytes were files; one file is right, one holds other bytes
            let user = try await client.register("搬家")
            try await app.database.query("ALTER TABLE images DROP CONSTRAINT images_blob_fk")
            let good = TestImages.png(width: 4, height: 4)
            let bad = TestImages.png(width: 5, height: 5)
            let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "old-images-\(UUID().uuidString)")
            for (id, bytes, written) in [("i_old1", good, good), ("i_old2", bad, good + [0])] {
                let digest = ImageDigest.sha256(bytes)
                let hex = ImageDigest.hex(digest)
                try await app.database.query(
                    "INSERT INTO images (id, sha256, content_type, width, height, bytes, uploader_id) VALUES (\(id), \(Data(digest)), 'image/png', 4, 4, \(bytes.count), \(user.id))"
                )
                let sub = folder.appendingPathComponent(String(hex.prefix(2)))
                try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
                try Data(written).write(to: sub.appendingPathComponent(hex))
            }
            // MUT
            let report = try await ImageFileLoader(database: app.database).run(directory: folder)
            // validate
            #expect(report.loaded == 1 && report.missing == [ImageDigest.hex(ImageDigest.sha256(bad))])
            #expect(Array(try await client.send(.get, "/v1/images/i_old1").body.readableBytesView) == good)
            #expect(try await client.send(.get, "/v1/images/i_old2").status == .notFound)
        }
    }
}
