import Foundation
import PostgresNIO

/// `chidian images load DIR`: reads the bytes of images uploaded while they were kept as files (an old
/// `IMAGE_DIR`, `DIR/ab/abcdef…` by SHA-256) into `image_blobs`, so those rows are served again.
public struct ImageFileLoader: Sendable {
    package let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var loaded = 0
        public var missing: [String] = []
        public var description: String {
            "loaded \(loaded) images; \(missing.count) still without bytes"
                + (missing.isEmpty ? "" : ": " + missing.prefix(5).joined(separator: ", "))
        }
    }

    public func run(directory: URL) async throws -> Report {
        let wanted = try await database.query(
            """
            SELECT DISTINCT i.sha256 FROM images i
            WHERE NOT EXISTS (SELECT 1 FROM image_blobs b WHERE b.sha256 = i.sha256)
            """
        ).map { [UInt8](try $0.decode(Data.self)) }
        var report = Report()
        for digest in wanted {
            let hex = ImageDigest.hex(digest)
            let file = directory.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex)
            // Only bytes that hash to the row's digest and read as an image are stored.
            guard let data = try? Data(contentsOf: file), data.count <= ImageFormat.maxBytes,
                ImageDigest.sha256([UInt8](data)) == digest, let info = try? ImageFormat.inspect([UInt8](data))
            else {
                report.missing.append(hex)
                continue
            }
            try await database.query(
                """
                INSERT INTO image_blobs (sha256, content_type, width, height, byte_count, bytes)
                VALUES (\(Data(digest)), \(info.format.contentType), \(info.width), \(info.height), \(data.count), \(data))
                ON CONFLICT (sha256) DO NOTHING
                """)
            report.loaded += 1
        }
        return report
    }
}
