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
        Self.appendEscaped(text, to: &buffer)
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
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        raw("\"")
        appendDigits(UInt64(year), width: 4)
        raw("-")
        appendDigits(UInt64(month), width: 2)
        raw("-")
        appendDigits(UInt64(day), width: 2)
        raw("T")
        appendDigits(UInt64(secondOfDay / 3600), width: 2)
        raw(":")
        appendDigits(UInt64(secondOfDay / 60 % 60), width: 2)
        raw(":")
        appendDigits(UInt64(secondOfDay % 60), width: 2)
        raw("Z\"")
    }

    mutating func id(_ prefix: UInt8, _ number: Int, width: Int) {
        buffer.append(UInt8(ascii: "\""))
        buffer.append(prefix)
        appendDigits(UInt64(number), width: width)
        buffer.append(UInt8(ascii: "\""))
    }

    private mutating func appendDigits(_ value: UInt64, width: Int) {
        var divisor: UInt64 = 1
        var digits = 1
        while value / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        if width > digits {
            for _ in digits..<width { buffer.append(UInt8(ascii: "0")) }
        }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
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

    /// JSON string escaping: quote, backslash and control characters; everything else is written as UTF-8.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
    }

    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &out)
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
