/// The pieces of hand-written JSON that the response writer (`JSONWriter`) and the data generator
/// (`JSONTextWriter`) share: the one string escaper, digits and `.iso8601` timestamps without
/// Foundation's formatters.
package enum JSONText {
    /// JSON string escaping: quote, backslash and control characters; everything else is written as UTF-8.
    package static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 { appendEscaped(byte, to: &out) }
    }

    /// One byte of a string's UTF-8, escaped as `appendEscaped` does.
    @inline(__always)
    package static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
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

    /// `value` in decimal, zero-padded to `width` digits.
    package static func appendDigits(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var divisor: UInt64 = 1
        var digits = 1
        while value / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        if width > digits {
            for _ in digits..<width { out.append(UInt8(ascii: "0")) }
        }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"` (quoted) for whole seconds since 1970, as `JSONEncoder`'s `.iso8601` writes it.
    package static func appendTimestamp(_ seconds: Int, to out: inout [UInt8]) {
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
        out.append(UInt8(ascii: "\""))
        appendDigits(UInt64(year), width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(month), width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(UInt64(day), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(UInt64(secondOfDay / 3600), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(secondOfDay / 60 % 60), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(UInt64(secondOfDay % 60), width: 2, to: &out)
        out.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }
}
