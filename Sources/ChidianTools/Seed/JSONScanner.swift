import ChidianCore
import Foundation

/// How a seed issue shows the value it names: short, whatever its size.
extension JSONValue {
    var preview: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let text): return "\"\(text.count > 60 ? String(text.prefix(60)) + "…" : text)\""
        case .array(let items): return "[\(items.count) items]"
        case .object: return "{…}"
        }
    }
}

/// A JSON syntax error with its position, 1-based.
struct JSONSyntaxError: Error, CustomStringConvertible {
    let line: Int
    let column: Int
    let message: String
    var description: String { "line \(line), column \(column): \(message)" }
}

/// Streams the elements of a file holding one top-level JSON array, parsing one element at a time, so a
/// million comments never sit in memory together. The file is memory-mapped.
struct JSONScanner {
    private let data: Data
    private var position: Int
    private var line = 1
    private var lineStart = 0
    private var started = false
    private var finished = false
    private(set) var index = -1

    init(contentsOf url: URL) throws {
        data = try Data(contentsOf: url, options: .alwaysMapped)
        position = 0
    }

    init(data: Data) {
        self.data = data
        position = 0
    }

    var byteCount: Int { data.count }
    var bytesRead: Int { position }
    /// The line where the current element starts.
    private(set) var elementLine = 1

    /// The next element, or nil after the closing bracket.
    mutating func next() throws -> JSONValue? {
        if finished { return nil }
        return try data.withUnsafeBytes { raw -> JSONValue? in
            let bytes = raw.bindMemory(to: UInt8.self)
            if !started {
                skipWhitespace(bytes)
                guard position < bytes.count else { throw error("the file is empty; a JSON array is expected") }
                guard bytes[position] == UInt8(ascii: "[") else { throw error("a JSON array is expected") }
                position += 1
                started = true
                skipWhitespace(bytes)
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    try finish(bytes)
                    return nil
                }
            } else {
                skipWhitespace(bytes)
                guard position < bytes.count else { throw error("the array is not closed") }
                if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    try finish(bytes)
                    return nil
                }
                guard bytes[position] == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an element") }
                position += 1
                skipWhitespace(bytes)
            }
            elementLine = line
            index += 1
            return try value(bytes, depth: 0)
        }
    }

    private mutating func finish(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        skipWhitespace(bytes)
        guard position == bytes.count else { throw error("unexpected text after the array") }
        finished = true
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: position - lineStart + 1, message: message)
    }

    private mutating func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                line += 1
                lineStart = position
            default:
                return
            }
        }
    }

    private mutating func value(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws -> JSONValue {
        guard depth < 64 else { throw error("nested too deeply") }
        skipWhitespace(bytes)
        guard position < bytes.count else { throw error("unexpected end of file") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object: [String: JSONValue] = [:]
            skipWhitespace(bytes)
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipWhitespace(bytes)
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw error("expected a key string")
                }
                let key = try string(bytes)
                skipWhitespace(bytes)
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                object[key] = try value(bytes, depth: depth + 1)
                skipWhitespace(bytes)
                guard position < bytes.count else { throw error("unexpected end of file in an object") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                position += 1
                return .object(object)
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONValue] = []
            skipWhitespace(bytes)
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                items.append(try value(bytes, depth: depth + 1))
                skipWhitespace(bytes)
                guard position < bytes.count else { throw error("unexpected end of file in an array") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                position += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try string(bytes))
        case UInt8(ascii: "t"): return try literal(bytes, "true", .bool(true))
        case UInt8(ascii: "f"): return try literal(bytes, "false", .bool(false))
        case UInt8(ascii: "n"): return try literal(bytes, "null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            while position < bytes.count {
                let c = bytes[position]
                guard
                    (48...57).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                        || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                else { break }
                position += 1
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            guard let value = Double(text) else { throw error("malformed number \(text)") }
            // Only an integer literal is an integer (`5.0` and `5e0` are not), as in request bodies.
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let integer = Int(text) {
                return .integer(integer)
            }
            return .number(value)
        default:
            throw error("unexpected character")
        }
    }

    private mutating func literal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString, _ result: JSONValue) throws
        -> JSONValue
    {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected end of file") }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            throw error("unexpected character")
        }
        position += count
        return result
    }

    private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                guard let text else { throw error("invalid UTF-8 in a string") }
                return text
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw error("control character in a string") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return text
            }
            if c < 0x20 { throw error("control character in a string") }
            if c != UInt8(ascii: "\\") {
                scalars.append(c)
                position += 1
                continue
            }
            guard position + 1 < bytes.count else { break }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4(bytes)
                if (0xD800...0xDBFF).contains(code), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                {
                    position += 2
                    let low = try hex4(bytes)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let digit: UInt32
            switch c {
            case 48...57: digit = UInt32(c - 48)
            case 65...70: digit = UInt32(c - 55)
            case 97...102: digit = UInt32(c - 87)
            default: throw error("invalid \\u escape")
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }
}
