import ChidianCore
import Foundation

/// JSON written by hand into a buffer that is flushed to a file every megabyte: a million generated rows never
/// exist as objects or `Data` at once, and no encoder runs per row.
struct JSONTextWriter {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private(set) var bytesWritten = 0
    private static let flushSize = 1 << 20

    /// Creates (or truncates) the file.
    init(url: URL) throws {
        path = url.path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw GeneratorError("cannot create \(path)")
        }
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(Self.flushSize + 64 * 1024)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Bytes that are already valid JSON string content (a `TextPiece`, an escaped name).
    mutating func escaped(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// A quoted, escaped JSON string.
    mutating func string(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        JSONText.appendEscaped(text, to: &buffer)
        buffer.append(UInt8(ascii: "\""))
    }

    /// A quoted string of already-escaped content.
    mutating func quoted(_ bytes: [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        buffer.append(contentsOf: bytes)
        buffer.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            appendDigits(UInt64(-value), width: 1)
        } else {
            appendDigits(UInt64(value), width: 1)
        }
    }

    /// A quoted id such as "u000042": the prefix then the number zero-padded to `width`.
    /// `"YYYY-MM-DDTHH:MM:SSZ"` for seconds since 1970, without Foundation's formatters (a million of them).
    mutating func timestamp(_ seconds: Int) {
        JSONText.appendTimestamp(seconds, to: &buffer)
    }

    mutating func id(_ prefix: UInt8, _ number: Int, width: Int) {
        buffer.append(UInt8(ascii: "\""))
        buffer.append(prefix)
        appendDigits(UInt64(number), width: width)
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func appendDigits(_ value: UInt64, width: Int) {
        JSONText.appendDigits(value, width: width, to: &buffer)
    }

    /// Writes out the buffer once it is large; call between rows.
    mutating func flushIfFull() throws {
        if buffer.count >= Self.flushSize { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw GeneratorError("cannot write \(path): \(error.localizedDescription)")
        }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        try flush()
        try handle.close()
    }

    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        JSONText.appendEscaped(text, to: &out)
        return out
    }
}

/// A fragment of generated text: its escaped JSON bytes and its length in characters (`String.count`), so
/// texts can be assembled and measured without building a `String`. Fragments never start or end with a
/// combining mark, so lengths add up.
struct TextPiece: Sendable {
    let bytes: [UInt8]
    let length: Int

    init(_ text: String) {
        bytes = JSONTextWriter.escape(text)
        length = text.count
    }
}

/// A generation failure, said in one line.
public struct GeneratorError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
