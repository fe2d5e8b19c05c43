import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Request {
    /// Decodes a JSON body of at most `limit` bytes; errors are 400 `invalid_body` naming the field, or 413.
    public mutating func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int = 1 << 20) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem(.contentTooLarge, "body_too_large", "The request body is over \(limit / 1024) KiB.")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem(.contentTooLarge, "body_too_large", "The request body is over \(limit / 1024) KiB.")
        }
        guard buffer.readableBytes > 0 else { throw Problem.invalidBody("The request body is empty; a JSON object is expected.") }
        do {
            let bytes = Array(buffer.readableBytesView)
            let decoder = JSONDecoder()
            decoder.userInfo[JSONNumbers.userInfoKey] = JSONNumbers(scanning: bytes)
            return try decoder.decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw Problem.invalidBody(error.fieldMessage)
        }
    }
}

extension DecodingError {
    /// "field 'rating' must be a number", naming the JSON path of the problem.
    var fieldMessage: String {
        func path(_ context: Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch self {
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "The body must be a JSON object." }
            return "Field '\(path(context))' must be \(Self.describe(type))."
        case .valueNotFound(let type, let context):
            return "Field '\(path(context))' must be \(Self.describe(type)), not null."
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "Field '\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)' is required."
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "The body is not valid JSON." }
            return "Field '\(path(context))' is invalid."
        @unknown default:
            return "The body is invalid."
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        case is [String].Type: return "an array of strings"
        default:
            let name = "\(type)"
            return name.hasPrefix("Array") ? "an array" : name.hasPrefix("Dictionary") ? "an object" : "a \(name)"
        }
    }
}

/// A JSON value kept as it came, for fields whose wrong type needs its own error code (`amount`, `rating`).
public enum JSONValue: Decodable, Sendable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])
    case integer(Int)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) {
            // `5.0` and `5e0` decode as Int too; only an integer literal is an integer.
            let numbers = decoder.userInfo[JSONNumbers.userInfoKey] as? JSONNumbers
            self = numbers?.isNonInteger(at: decoder.codingPath) == true ? .number(Double(value)) : .integer(value)
        }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// The value when it is a JSON integer (no fraction written, like `3` but not `3.5` or `"3"`).
    public var integerValue: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }
}

/// Responses: JSON with the given status and headers.
public struct JSONResponse<Body: Encodable & Sendable>: ResponseGenerator {
    public var status: HTTPResponse.Status
    public var headers: HTTPFields
    public var body: Body

    public init(_ body: Body, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let buffer: ByteBuffer
        if let writable = body as? any JSONWritable {
            var json = JSONWriter()
            writable.write(to: &json)
            buffer = ByteBuffer(bytes: json.bytes)
        } else {
            buffer = ByteBuffer(bytes: try JSONEncoder.chidian.encode(body))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}
