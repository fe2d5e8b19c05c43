import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ChidianClient

/// The headers the client adds to every request, without a server.
@Suite struct SessionMiddlewareTests {
    actor Seen {
        var requests: [HTTPRequest] = []
        func add(_ request: HTTPRequest) { requests.append(request) }
    }

    static func send(
        _ middleware: SessionMiddleware, _ request: HTTPRequest, answer: HTTPFields = [:], seen: Seen
    ) async throws {
        _ = try await middleware.intercept(
            request, body: nil, baseURL: URL(string: "http://127.0.0.1")!, operationID: "op"
        ) { request, _, _ in
            await seen.add(request)
            return (HTTPResponse(status: .ok, headerFields: answer), nil)
        }
    }

    @Test func visitorUntilSignedInThenBearerAndEntityTagsAsWritten() async throws {
        let session = Session(visitorId: "visitor_1")
        let middleware = SessionMiddleware(session: session)
        let seen = Seen()
        var edit = HTTPRequest(method: .patch, scheme: nil, authority: nil, path: "/v1/comments/c1")
        edit.headerFields[.ifMatch] = "%223%22"  // what the generated code writes for "3"
        // MUT
        try await Self.send(middleware, HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), seen: seen)
        await session.signIn("t0ken")
        try await Self.send(middleware, edit, answer: [SessionMiddleware.positionHeader: "0/3A1B2C8"], seen: seen)
        try await Self.send(middleware, HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), seen: seen)
        await session.signOut()
        try await Self.send(middleware, HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/"), seen: seen)
        // validate
        let requests = await seen.requests
        #expect(requests[0].headerFields[SessionMiddleware.visitorHeader] == "visitor_1")
        #expect(requests[0].headerFields[.authorization] == nil)
        #expect(requests[1].headerFields[.authorization] == "Bearer t0ken")
        #expect(requests[1].headerFields[SessionMiddleware.visitorHeader] == nil)
        #expect(requests[1].headerFields[.ifMatch] == "\"3\"")
        #expect(requests[2].headerFields[SessionMiddleware.positionHeader] == "0/3A1B2C8", "reads its own write")
        #expect(requests[3].headerFields[.authorization] == nil)
        #expect(requests[3].headerFields[SessionMiddleware.visitorHeader] == "visitor_1")
    }
}
