import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools
import Foundation

/// Writes the OpenAPI document that `GET /openapi.json` serves, byte for byte, so the committed `openapi.json`
/// (which the Swift client package generates from) can be refreshed without starting a server.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi", abstract: "Write the OpenAPI document served at /openapi.json.",
        discussion: "Refresh the committed copy with `chidian openapi --output openapi.json`.")

    @Option(help: "The file to write; standard output when absent.") var output: String?

    func run() throws {
        let data = Data(OpenAPIDocument.json.utf8)
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
    }
}
