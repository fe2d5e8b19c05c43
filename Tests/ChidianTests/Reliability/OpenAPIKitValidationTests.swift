import Foundation
import OpenAPIKit
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// OpenAPIKit, the Swift library that models the format, reads the document and finds nothing to refuse.
@Suite struct OpenAPIKitValidationTests {
    @Test func openAPIKitDecodesAndValidatesTheDocument() throws {
        // MUT
        let document = try JSONDecoder().decode(OpenAPI.Document.self, from: Data(OpenAPIDocument.json.utf8))
        // validate
        try document.validate()
        #expect(document.info.title == "Chidian API")
        #expect(document.paths.count == Set(APIOperations.all.map(\.path)).count)
        let problem = try #require(document.components.schemas["Problem"])
        #expect(problem.objectContext?.properties["code"] != nil)
    }
}
