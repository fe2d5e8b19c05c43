import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The committed `openapi.json` (what the Swift client package in ChidianClient/ generates from) is the document
/// the server serves, so the client never drifts from the server.
@Suite struct OpenAPIFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommittedDocumentIsTheServedOne() throws {
        // MUT
        let committed = try String(contentsOf: Self.root.appendingPathComponent("openapi.json"), encoding: .utf8)
        // validate
        #expect(
            committed == OpenAPIDocument.json,
            """
            openapi.json differs from the document the server builds (Sources/ChidianAPI/OpenAPI): regenerate it with \
            `swift build --product chidian && .build/debug/chidian openapi --output openapi.json` and commit it \
            (ChidianClient/ regenerates its client from it on the next build).
            """)
    }

    @Test func theCommandWritesTheServedDocumentByteForByte() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        // MUT
        let written = try await ChidianBinary.run(["openapi", "--output", file.path], databaseURL: nil)
        let printed = try await ChidianBinary.run(["openapi"], databaseURL: nil)
        // validate
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try Data(contentsOf: file) == Data(OpenAPIDocument.json.utf8))
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout == OpenAPIDocument.json)
    }
}
