import Crypto
import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Image bytes on disk, once per SHA-256: `<directory>/<first two hex digits>/<hex>`. Files are written
/// to a temporary name and renamed into place, so a reader never sees half a file; the same bytes
/// uploaded twice (or at once) land on the same name with the same content.
public struct ImageStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    public static func hex(_ digest: [UInt8]) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    public func path(sha256 digest: [UInt8]) -> String {
        let hex = Self.hex(digest)
        return "\(directory)/\(hex.prefix(2))/\(hex)"
    }

    /// Stores `bytes` under their hash unless already there. Runs off the event loops.
    public func save(_ bytes: [UInt8], sha256 digest: [UInt8]) async throws {
        let path = path(sha256: digest)
        try await NIOThreadPool.singleton.runIfActive {
            let files = FileManager.default
            if files.fileExists(atPath: path) { return }
            let folder = (path as NSString).deletingLastPathComponent
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = "\(folder)/.upload-\(UUID().uuidString)"
            guard files.createFile(atPath: temporary, contents: nil) else { throw ImageStoreError(path: temporary) }
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
                defer { try? handle.close() }
                try handle.write(contentsOf: bytes)
                try handle.synchronize()
            } catch {
                try? files.removeItem(atPath: temporary)
                throw error
            }
            // rename(2) replaces atomically, also when another upload of the same bytes won the race.
            guard rename(temporary, path) == 0 else {
                try? files.removeItem(atPath: temporary)
                throw ImageStoreError(path: path)
            }
        }
    }
}

struct ImageStoreError: Error, CustomStringConvertible {
    let path: String
    var description: String { "could not write image file \(path)" }
}
