import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct ProblemTests {
    @Test func unknownRouteIsAProblem() async throws {
        try await TestApp.run { client, _ in
            let response = try await client.send(.get, "/v1/nowhere")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
            let body = try response.json()
            #expect(body["code"] as? String == "not_found")
            #expect(body["status"] as? Int == 404)
            #expect(body["title"] as? String == "Not Found")
            #expect((body["requestId"] as? String)?.isEmpty == false)
            #expect(body["type"] as? String != nil)
        }
    }

    @Test func unknownErrorsAre500WithoutInternals() async throws {
        struct Secret: Error { let sql = "SELECT password_hash FROM users" }
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: ResponseHeadersMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.get("/boom") { _, _ -> String in throw Secret() }
        router.get("/problem") { _, _ -> String in throw Problem.badRequest("thing_wrong", "The thing is wrong.") }
        try await Application(router: router).test(.router) { client in
            let boom = try await client.send(.get, "/boom")
            #expect(boom.status == .internalServerError)
            #expect(boom.problemCode == "internal_error")
            #expect(!boom.text.contains("SELECT"))
            #expect(!boom.text.contains("Secret"))

            let problem = try await client.send(.get, "/problem")
            #expect(problem.status == .badRequest)
            #expect(problem.problemCode == "thing_wrong")
            #expect(try problem.json()["detail"] as? String == "The thing is wrong.")
        }
    }
}
