import Foundation

/// A response body that writes its own JSON. Foundation's `JSONEncoder` was a third of the server's CPU on a
/// page of reviews (boxing every value, generic metadata lookups); the hot shapes write bytes directly. The
/// output is the JSON `JSONEncoder.chidian` writes for the same value (`JSONWriterTests` compares them).
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

/// Appends JSON tokens to a byte array; the caller keeps the structure (objects, arrays) balanced.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func array<Element>(_ elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key inside an object; the value written next belongs to it.
    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    public mutating func string(_ string: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func string(_ string: String?) {
        if let string { self.string(string) } else { null() }
    }

    public mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    public mutating func int(_ value: Int?) {
        if let value { int(value) } else { null() }
    }

    /// As `JSONEncoder` writes a `Double`: integral values without a fraction (`5`, not `5.0`).
    public mutating func double(_ value: Double) {
        separate()
        if value.rounded() == value, abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        needsComma = true
    }

    public mutating func double(_ value: Double?) {
        if let value { double(value) } else { null() }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// As `.iso8601` writes it: UTC, whole seconds (`2026-11-22T04:12:32Z`).
    public mutating func date(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = ""
        text.reserveCapacity(20)
        text += Self.padded(year, 4) + "-" + Self.padded(month, 2) + "-" + Self.padded(day, 2)
        text += "T" + Self.padded(time / 3600, 2) + ":" + Self.padded(time / 60 % 60, 2) + ":" + Self.padded(time % 60, 2) + "Z"
        string(text)
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Page: JSONWritable where Item: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
            json.key("nextCursor")
            json.string(nextCursor)
        }
    }
}
