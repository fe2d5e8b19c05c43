import Foundation
import NIOCore
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

/// One `images` row per upload (ownership is per uploader); the bytes once per hash in `image_blobs`.
public struct ImageRepository: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Stores the bytes (unless that content is already there) and the upload's row in one statement, so a row
    /// never names bytes that are not stored.
    public func create(bytes: [UInt8], info: ImageFormat.Info, uploaderID: String) async throws -> ImageView {
        let digest = Data(ImageDigest.sha256(bytes))
        let rows = try await database.query(
            """
            WITH blob AS (
                INSERT INTO image_blobs (sha256, content_type, width, height, byte_count, bytes)
                SELECT \(digest), \(info.format.contentType), \(info.width), \(info.height), \(bytes.count), \(Data(bytes))
                WHERE NOT EXISTS (SELECT 1 FROM image_blobs WHERE sha256 = \(digest))
                ON CONFLICT (sha256) DO NOTHING
            )
            INSERT INTO images (sha256, content_type, width, height, bytes, uploader_id)
            VALUES (\(digest), \(info.format.contentType), \(info.width), \(info.height), \(bytes.count), \(uploaderID))
            RETURNING id
            """)
        let id = try rows[0].decode(String.self)
        return ImageView(
            id: id, url: ImageURL.path(id), contentType: info.format.contentType, width: info.width,
            height: info.height,
            bytes: bytes.count)
    }

    /// What serving an image needs: its blob's key, type and size, and the first `slice` bytes when asked for.
    public struct Stored: Sendable {
        public let sha256: [UInt8]
        public let contentType: String
        public let byteCount: Int
        public let head: ByteBuffer?

        /// As the image cache keeps it: the head in storage of its own (NIO rounds it up to a power of two, and
        /// `cost` counts that). A row's bytes arrive as a slice of the connection's read buffer, which would keep
        /// that whole buffer alive (and uncounted) beside them.
        func compacted() -> Stored {
            guard let head else { return self }
            var exact = ByteBufferAllocator().buffer(capacity: head.readableBytes)
            exact.writeImmutableBuffer(head)
            return Stored(sha256: sha256, contentType: contentType, byteCount: byteCount, head: exact)
        }

        /// What the image cache counts: the head's storage, the hash, the type and the value around them.
        package var cost: Int { (head?.capacity ?? 0) + sha256.count + contentType.utf8.count + 128 }
    }

    /// The image's blob; nil when there is no such image, or its bytes were never stored (a row from before
    /// the bytes moved into the database whose file was not loaded).
    public func stored(id: String, head slice: Int) async throws -> Stored? {
        guard PlausibleID.check(id) else { return nil }
        let rows = try await database.query(
            """
            SELECT b.sha256, b.content_type, b.byte_count, CASE WHEN \(slice)::int > 0 THEN substring(b.bytes FROM 1 FOR \(slice)::int) END
            FROM images i JOIN image_blobs b ON b.sha256 = i.sha256
            WHERE i.id = \(id)
            """)
        guard let row = rows.first else { return nil }
        let (digest, contentType, byteCount, head) = try row.decode((Data, String, Int, ByteBuffer?).self)
        return Stored(sha256: Array(digest), contentType: contentType, byteCount: byteCount, head: head)
    }

    /// `length` bytes of a blob from `offset` (zero-based).
    public func slice(sha256: [UInt8], offset: Int, length: Int) async throws -> ByteBuffer {
        let rows = try await database.query(
            "SELECT substring(bytes FROM \(offset + 1)::int FOR \(length)::int) FROM image_blobs WHERE sha256 = \(Data(sha256))"
        )
        guard let row = rows.first else { throw ImageBytesMissing() }
        return try row.decode(ByteBuffer.self)
    }
}

/// A blob vanished between the head and a later slice (blobs are never deleted while a row names them).
package struct ImageBytesMissing: Error {
    package init() {}
}
