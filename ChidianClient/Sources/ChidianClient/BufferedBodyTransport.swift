#if os(Linux)
    import AsyncHTTPClient
    import Foundation
    import HTTPTypes
    import NIOCore
    import NIOHTTP1
    import OpenAPIRuntime

    /// The Linux transport: swift-openapi-async-http-client's `AsyncHTTPClientTransport`, except that a request
    /// body of known length (every body this client sends: JSON or an image already in memory) goes to
    /// AsyncHTTPClient as one buffer instead of an async stream.
    ///
    /// Why: AsyncHTTPClient (1.37) writes a streamed body from a task of its own, after the request head is
    /// flushed. When the server refuses a request before reading its body (401 `login_required`, 415, …), its
    /// response head can arrive first; AsyncHTTPClient then drops the body part (status ≥ 300) but still checks
    /// the stream's end against `Content-Length`, and fails the refusal with `HTTPClientError.bodyLengthMismatch`
    /// if the end comes before the response's own end (our server writes the head and the body in two writes).
    /// A buffered body is written with its head in one event-loop turn, before any response can be read. Measured
    /// with 5000 anonymous `postReview`s, 16 at a time: streamed, 15 (21 under CPU load) ended in the mismatch;
    /// buffered, none.
    struct BufferedBodyTransport: ClientTransport {
        /// Bodies of known length up to this are buffered; larger or unknown ones are streamed (-1: all streamed).
        var bufferLimit = 64 << 20

        var client: HTTPClient = .shared
        var timeout: TimeAmount = .minutes(1)

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            guard var url = URLComponents(string: baseURL.absoluteString),
                let path = URLComponents(string: request.path ?? "")
            else { throw URLError(.badURL) }
            url.percentEncodedPath += path.percentEncodedPath
            url.percentEncodedQuery = path.percentEncodedQuery
            guard let address = url.url?.absoluteString else { throw URLError(.badURL) }
            var outgoing = HTTPClientRequest(url: address)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
            for field in request.headerFields {
                outgoing.headers.add(name: field.name.canonicalName, value: field.value)
            }
            if let body {
                switch body.length {
                case .known(let count) where count <= bufferLimit:
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(Int(count))
                    for try await chunk in body { buffer.writeBytes(chunk) }
                    outgoing.body = .bytes(buffer)
                case .known(let count):
                    outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: .known(count))
                case .unknown: outgoing.body = .stream(body.map { ByteBuffer(bytes: $0) }, length: .unknown)
                }
            }

            let response = try await client.execute(outgoing, timeout: timeout)
            var fields = HTTPFields()
            for header in response.headers {
                if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
            }
            let length = fields[.contentLength].flatMap { Int64($0) }.map(HTTPBody.Length.known) ?? .unknown
            let responseBody: HTTPBody? =
                switch request.method {
                case .head, .connect, .trace: nil
                default:
                    HTTPBody(response.body.map { $0.readableBytesView }, length: length, iterationBehavior: .single)
                }
            return (HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields), responseBody)
        }
    }
#endif
