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
        guard buffer.readableBytes > 0 else {
            throw Problem.invalidBody("The request body is empty; a JSON object is expected.")
        }
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

/// Responses: JSON with the given status and headers. The body's writer is chosen by overload at compile
/// time: a `JSONWritable` body (the hot shapes) writes its own bytes, any other `Encodable` goes through
/// `JSONEncoder.chidian`. Both refuse non-finite doubles (a logged 500, never invalid JSON).
public struct JSONResponse<Body: Encodable & Sendable>: ResponseGenerator {
    public var status: HTTPResponse.Status
    public var headers: HTTPFields
    public var body: Body
    private let render: @Sendable (Body) throws -> [UInt8]

    public init(_ body: Body, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.status = status
        self.headers = headers
        self.body = body
        render = { [UInt8](try JSONEncoder.chidian.encode($0)) }
    }

    public init(_ body: Body, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) where Body: JSONWritable {
        self.status = status
        self.headers = headers
        self.body = body
        render = { try JSONWriter.bytes(of: $0) }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let buffer = ByteBuffer(bytes: try render(body))
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }
}

/// A 200 JSON response whose body only ever writes itself (a page assembled from cached bytes, not `Encodable`).
package struct WrittenJSON<Body: JSONWritable & Sendable>: ResponseGenerator {
    package var body: Body

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONWriter.bytes(of: body))))
    }

    package init(body: Body) {
        self.body = body
    }
}
