import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The document in the shapes client generators read (scripts/client-test.sh generates and runs one).
@Suite struct OpenAPIClientShapeTests {
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    }

    @Test func everyErrorResponseIsThePlainProblemWithItsCodesListed() throws {
        let paths = try #require(try Self.document()["paths"] as? [String: [String: [String: Any]]])
        var errors = 0
        for (path, methods) in paths {
            for (method, operation) in methods {
                let responses = try #require(operation["responses"] as? [String: [String: Any]])
                for (status, response) in responses where Int(status)! >= 400 {
                    errors += 1
                    let content = response["content"] as? [String: [String: Any]]
                    let schema = content?["application/problem+json"]?["schema"] as? [String: Any]
                    #expect(
                        schema?.keys.sorted() == ["$ref"]
                            && schema?["$ref"] as? String == "#/components/schemas/Problem",
                        "\(method) \(path) \(status)")
                    let codes = response["x-problem-codes"] as? [String] ?? []
                    #expect(!codes.isEmpty, "\(method) \(path) \(status)")
                }
            }
        }
        #expect(errors > 100)
    }

    @Test func theTitleIsAnInstallableNameAndTheChineseStaysInTheDescription() throws {
        let info = try #require(try Self.document()["info"] as? [String: Any])
        let title = try #require(info["title"] as? String)
        #expect(title.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") })
        #expect((info["description"] as? String)?.contains("今天吃点啥") == true)
    }
}
