import Foundation

/// Reads back what `JSONWriter` wrote, a token at a time, without Foundation's decoder: reading a cached store's
/// view from its JSON took 82 µs through `JSONDecoder` and must cost about what writing it does (5 µs). It reads
/// any JSON without spaces whose strings use the writer's escapes (and any `\u` one); anything else throws.
package struct JSONReader {
    package struct Malformed: Error {
        package let offset: Int
    }

    private let bytes: [UInt8]
    private var at = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func fail() -> Malformed { Malformed(offset: at) }

    private var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func expect(_ byte: UInt8) throws {
        guard next == byte else { throw fail() }
        at += 1
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard at + length <= bytes.count else { return false }
        let matches = text.withUTF8Buffer { word in (0..<length).allSatisfy { bytes[at + $0] == word[$0] } }
        if matches { at += length }
        return matches
    }

    /// Consumes `null` when it comes next.
    package mutating func null() -> Bool { literal("null") }

    /// The members of an object, each key handed to `member`, which must read its value.
    package mutating func object(_ member: (inout JSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if next == UInt8(ascii: "}") { return at += 1 }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            guard next == UInt8(ascii: ",") else { return try expect(UInt8(ascii: "}")) }
            at += 1
        }
    }

    package mutating func array(_ element: (inout JSONReader) throws -> Void) throws {
        try expect(UInt8(ascii: "["))
        if next == UInt8(ascii: "]") { return at += 1 }
        while true {
            try element(&self)
            guard next == UInt8(ascii: ",") else { return try expect(UInt8(ascii: "]")) }
            at += 1
        }
    }

    package mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = at
        // Most strings have no escape: one copy of their bytes.
        while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") { at += 1 }
        guard next != UInt8(ascii: "\\") else {
            at = start
            return try escapedString()
        }
        try expect(UInt8(ascii: "\""))
        return String(decoding: bytes[start..<at - 1], as: UTF8.self)
    }

    private mutating func escapedString() throws -> String {
        var out: [UInt8] = []
        while let byte = next, byte != UInt8(ascii: "\"") {
            at += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard let escape = next else { throw fail() }
            at += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var unit = try hex4()
                if (0xD800..<0xDC00).contains(unit), literal("\\u") {
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail() }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { throw fail() }
                out.append(contentsOf: String(Character(scalar)).utf8)
            default: throw fail()
            }
        }
        try expect(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw fail() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[at])).hexDigitValue else { throw fail() }
            value = value << 4 | UInt32(digit)
            at += 1
        }
        return value
    }

    /// The bytes of a number token.
    private mutating func number() throws -> ArraySlice<UInt8> {
        let start = at
        while let byte = next,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        {
            at += 1
        }
        guard at > start else { throw fail() }
        return bytes[start..<at]
    }

    package mutating func int() throws -> Int {
        let token = try number()
        guard let value = Int(String(decoding: token, as: UTF8.self)) else { throw fail() }
        return value
    }

    /// Exactly the double written: the writer writes the shortest digits that read back the same.
    package mutating func double() throws -> Double {
        let token = try number()
        guard let value = Double(String(decoding: token, as: UTF8.self)) else { throw fail() }
        return value
    }

    package mutating func bool() throws -> Bool {
        if literal("true") { return true }
        if literal("false") { return false }
        throw fail()
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"`, as `JSONText.appendTimestamp` writes it.
    package mutating func date() throws -> Date {
        let text = Array(try string().utf8)
        guard text.count >= 20, text.last == UInt8(ascii: "Z") else { throw fail() }
        let tail = text.count - 16
        func digits(_ range: Range<Int>) throws -> Int {
            var value = 0
            for index in range {
                let digit = Int(text[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { throw fail() }
                value = value * 10 + digit
            }
            return value
        }
        let year = try digits(0..<tail)
        let (month, day) = (try digits(tail + 1..<tail + 3), try digits(tail + 4..<tail + 6))
        let seconds =
            try digits(tail + 7..<tail + 9) * 3600 + digits(tail + 10..<tail + 12) * 60
            + digits(tail + 13..<tail + 15)
        // Days since 1970-01-01 from the civil date (Howard Hinnant's algorithm, as the writer's inverse).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds))
    }

    /// Skips one value of any kind.
    package mutating func skip() throws {
        switch next {
        case UInt8(ascii: "{"): try object { reader, _ in try reader.skip() }
        case UInt8(ascii: "["): try array { try $0.skip() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): guard null() else { throw fail() }
        default: _ = try number()
        }
    }

    /// Whether everything was read.
    package var atEnd: Bool { at == bytes.count }
}
