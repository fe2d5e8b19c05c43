import Foundation
import NIOCore
import PostgresNIO

/// Rows in PostgreSQL's COPY text format, flushed to the server in ~1 MiB writes.
package struct CopyBuffer {
    package private(set) var buffer = ByteBuffer()
    package private(set) var rows = 0

    package init() {}

    package mutating func append(_ fields: [String?]) {
        for (position, field) in fields.enumerated() {
            if position > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            guard let field else {
                buffer.writeStaticString("\\N")
                continue
            }
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                default: buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
        rows += 1
    }

    package var isFull: Bool { buffer.readableBytes >= 1 << 20 }

    package mutating func flush(to writer: PostgresCopyFromWriter) async throws {
        guard buffer.readableBytes > 0 else { return }
        try await writer.write(buffer)
        buffer.clear()
    }

    /// bytea's hex input form (`append` then escapes its backslash for COPY).
    package static func hex(_ bytes: [UInt8]) -> String { "\\x" + ImageDigest.hex(bytes) }
}
