/// The one JSON value type: a body field kept as it came, for fields whose wrong type needs its own error code
/// (`amount`, `rating`), and any JSON written or read whole. Integers stay apart from other numbers, so `3` and
/// `3.5` (and `"3"`) are told apart.
public enum JSONValue: Codable, Sendable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])
    case integer(Int)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            // `5.0` and `5e0` decode as Int too; only an integer literal is an integer (JSONNumbers, when the
            // decoder was given the body's scan).
            let numbers = decoder.userInfo[JSONNumbers.userInfoKey] as? JSONNumbers
            self = numbers?.isNonInteger(at: decoder.codingPath) == true ? .number(Double(value)) : .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value when it is a JSON integer (no fraction written, like `3` but not `3.5` or `"3"`).
    public var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

extension JSONValue: JSONWritable {
    /// Object keys in sorted order, so the same value always writes the same bytes.
    public func write(to json: inout JSONWriter) {
        switch self {
        case .null: json.null()
        case .bool(let value): json.bool(value)
        case .integer(let value): json.int(value)
        case .number(let value): json.double(value)
        case .string(let value): json.string(value)
        case .array(let values): json.array(values) { json, value in value.write(to: &json) }
        case .object(let members):
            json.object { json in
                for key in members.keys.sorted() {
                    json.key(escaping: key)
                    members[key]!.write(to: &json)
                }
            }
        }
    }
}
