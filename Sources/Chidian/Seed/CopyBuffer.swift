import Foundation
import NIOCore
import PostgresNIO

/// Rows in PostgreSQL's COPY text format, flushed to the server in ~1 MiB writes.
struct CopyBuffer {
    private(set) var buffer = ByteBuffer()
    private(set) var rows = 0

    mutating func append(_ fields: [String?]) {
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

    var isFull: Bool { buffer.readableBytes >= 1 << 20 }

    mutating func flush(to writer: PostgresCopyFromWriter) async throws {
        guard buffer.readableBytes > 0 else { return }
        try await writer.write(buffer)
        buffer.clear()
    }

    static func date(_ date: Date?) -> String? { date.map(SeedDates.format) }
    /// bytea's hex input form (`append` then escapes its backslash for COPY).
    static func hex(_ bytes: [UInt8]) -> String { "\\x" + ImageDigest.hex(bytes) }
}
