import Foundation
import OpenAPIRuntime
import Testing

@testable import ChidianClient

/// problem+json into `ChidianError`, without a server.
@Suite struct ChidianErrorTests {
    static func problem(_ code: String, _ status: Int) -> Components.Schemas.Problem {
        .init(
            code: code, detail: "Detail", requestId: "r1", status: status, title: "Title",
            _type: "https://chidian.dev/problems/\(code.replacingOccurrences(of: "_", with: "-"))")
    }

    @Test func everyCodeTheDocumentListsIsKnownAndRoundTrips() {
        // MUT / validate: a new code in openapi.json fails here until the enum has its case
        for code in Components.Schemas.ProblemCode.allCases {
            let mapped = ChidianError.Code(rawValue: code.rawValue)
            #expect(
                mapped != .unknown(code.rawValue),
                "ChidianError.Code lacks \(code.rawValue): run scripts/client-error-codes.py")
            #expect(mapped.rawValue == code.rawValue)
        }
        #expect(ChidianError.Code.allKnown.count == Components.Schemas.ProblemCode.allCases.count)
    }

    @Test func anUnknownCodeIsKeptNotACrash() {
        // MUT
        let error = ChidianError(Self.problem("brand_new_refusal", 418))
        // validate
        #expect(error.code == .unknown("brand_new_refusal"))
        #expect(error.code.rawValue == "brand_new_refusal")
        #expect(error.status == 418 && error.title == "Title" && error.detail == "Detail" && error.requestId == "r1")
    }

    @Test func aDocumentedErrorResponseBecomesTheError() async {
        let output = Operations.GetStore.Output.notFound(
            .init(
                headers: .init(xContentTypeOptions: .nosniff, xRequestId: "r1"),
                body: .applicationProblemJson(Self.problem("store_not_found", 404))))
        // MUT
        let error = await ChidianError.from(output)
        // validate
        #expect(error.code == .storeNotFound && error.status == 404 && error.requestId == "r1")
    }

    @Test func anUndocumentedStatusWithAProblemBodyIsReadToo() async throws {
        let body = try JSONEncoder().encode(Self.problem("teapot", 418))
        let output = Operations.GetStore.Output.undocumented(
            statusCode: 418, .init(headerFields: [:], body: HTTPBody(body)))
        // MUT
        let error = await ChidianError.from(output)
        // validate
        #expect(error.code == .unknown("teapot") && error.status == 418)
    }

    @Test func anUndocumentedStatusWithoutABodyKeepsItsStatus() async {
        let output = Operations.GetStore.Output.undocumented(statusCode: 502, .init())
        // MUT
        let error = await ChidianError.from(output)
        // validate
        #expect(error.status == 502 && error.code == .unknown(""))
    }
}
