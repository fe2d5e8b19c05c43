import Foundation

/// A JSON value written in code, keeping the order its object keys were given in, so the OpenAPI document
/// reads top-down (`openapi`, `info`, `paths`…) instead of alphabetically.
public indirect enum JSONTree: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONTree])
    case object([(String, JSONTree)])

    public static func == (a: JSONTree, b: JSONTree) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: return false
        }
    }

    /// The value under `key` of an object.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    public var objectKeys: [String] {
        guard case .object(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    /// An object with `other`'s keys added after (or replacing) this one's.
    public func merging(_ other: JSONTree) -> JSONTree {
        guard case .object(var pairs) = self, case .object(let extra) = other else { return other }
        for (key, value) in extra {
            if let index = pairs.firstIndex(where: { $0.0 == key }) {
                pairs[index].1 = value
            } else {
                pairs.append((key, value))
            }
        }
        return .object(pairs)
    }

    /// Compact JSON text, keys in their given order.
    public func serialized() -> String {
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        case .int(let value): out += String(value).utf8
        case .double(let value):
            out += (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)).utf8
        case .string(let value): Self.quote(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Through the one escaper the response writer uses.
    private static func quote(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        JSONText.appendEscaped(text, to: &out)
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONTree: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSONTree...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONTree)...) { self = .object(elements) }
    public init(nilLiteral: ()) { self = .null }
}
