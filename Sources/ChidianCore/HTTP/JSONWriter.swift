import Foundation

/// A response body that writes its own JSON. Foundation's `JSONEncoder` was a third of the server's CPU on a
/// page of reviews (boxing every value, generic metadata lookups); the hot shapes write bytes directly. The
/// output is the JSON `JSONEncoder.chidian` writes for the same value (`JSONWriterTests` compares them).
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
    /// Bytes to reserve before writing: a page of kept JSON says its size, so the buffer is not regrown as it fills.
    var jsonCapacity: Int { get }
}

extension JSONWritable {
    public var jsonCapacity: Int { 1024 }
}

/// Appends JSON tokens to a byte array; the caller keeps the structure (objects, arrays) balanced.
/// A non-finite double has no JSON form: like `JSONEncoder`, the writer refuses it (`finish()` throws).
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false
    private var nonFinite = false

    /// Writes `value` and returns its JSON, or throws `EncodingError` when it held a non-finite double.
    public static func bytes(of value: some JSONWritable) throws -> [UInt8] {
        var json = JSONWriter(capacity: value.jsonCapacity)
        value.write(to: &json)
        return try json.finish()
    }

    /// The JSON written, unless a non-finite double was refused.
    public func finish() throws -> [UInt8] {
        guard !nonFinite else {
            throw EncodingError.invalidValue(
                Double.nan, .init(codingPath: [], debugDescription: "A non-finite double has no JSON form."))
        }
        return bytes
    }

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

    /// A ready-made object (`object`: its JSON bytes) with more members written after its own by `body`.
    public mutating func object(extending object: [UInt8], _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(contentsOf: object.dropLast())
        needsComma = object.count > 2
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

    /// A key known only at run time, escaped.
    public mutating func key(escaping key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    public mutating func string(_ string: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        JSONText.appendEscaped(string, to: &bytes)
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
        if !value.isFinite {
            nonFinite = true
            bytes.append(contentsOf: "null".utf8)
        } else if value.rounded() == value, abs(value) < 1e15 {
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
        separate()
        JSONText.appendTimestamp(Int(date.timeIntervalSince1970.rounded(.down)), to: &bytes)
        needsComma = true
    }

    /// A value already written as JSON (a cached store's bytes), copied as it is.
    public mutating func raw(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
        needsComma = true
    }

    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
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
