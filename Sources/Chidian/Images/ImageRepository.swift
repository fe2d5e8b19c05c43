import Foundation
import PostgresNIO

/// The public shape of an uploaded image.
public struct ImageView: Encodable, Sendable, Equatable {
    public var id: String
    public var url: String
    public var contentType: String
    public var width: Int
    public var height: Int
    public var bytes: Int
}

/// One `images` row per upload (ownership is per uploader); the bytes live once per hash in `ImageStore`.
public struct ImageRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func create(info: ImageFormat.Info, sha256: [UInt8], byteCount: Int, uploaderID: String) async throws -> ImageView {
        let rows = try await database.query(
            """
            INSERT INTO images (sha256, content_type, width, height, bytes, uploader_id)
            VALUES (\(Data(sha256)), \(info.format.contentType), \(info.width), \(info.height), \(byteCount), \(uploaderID))
            RETURNING id
            """)
        let id = try rows[0].decode(String.self)
        return ImageView(
            id: id, url: ImageURL.path(id), contentType: info.format.contentType, width: info.width, height: info.height,
            bytes: byteCount)
    }

    /// What serving an image needs.
    public struct Stored: Sendable {
        public let sha256: [UInt8]
        public let contentType: String
        public let bytes: Int
    }

    public func stored(id: String) async throws -> Stored? {
        guard PlausibleID.check(id) else { return nil }
        let rows = try await database.query("SELECT sha256, content_type, bytes FROM images WHERE id = \(id)")
        guard let row = rows.first else { return nil }
        let (digest, contentType, bytes) = try row.decode((Data, String, Int).self)
        return Stored(sha256: Array(digest), contentType: contentType, bytes: bytes)
    }
}
