import Foundation
import HTTPTypes
import Hummingbird

/// Optimistic concurrency: editable resources carry `version`, sent as `ETag: "<version>"`;
/// `If-Match` on a write must name the current version or the write is refused with 412.
public enum Versioning {
    public static func etag(_ version: Int) -> HTTPFields {
        [.eTag: tag(version)]
    }

    public static func tag(_ version: Int) -> String { "\"\(version)\"" }

    /// The version named by `If-Match`, nil when the header is absent (or `*`); 412 when unreadable.
    public static func ifMatch(_ request: Request) throws -> Int? {
        guard let raw = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces), raw != "*" else { return nil }
        var text = Substring(raw)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
        guard let version = Int(text) else { throw versionConflict }
        return version
    }

    public static let versionConflict = Problem(
        .preconditionFailed, "version_conflict", "The resource changed since you read it; fetch it again.")
}
