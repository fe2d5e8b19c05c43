import Foundation

/// Writes a Swift file holding the given SQL files as base64, so no escaping can go wrong.
@main
struct EmbedSQL {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first else {
            FileHandle.standardError.write(Data("usage: EmbedSQL OUTPUT FILE...\n".utf8))
            exit(2)
        }
        var source = "// Generated from sql/*.sql by the EmbedMigrations plugin. Do not edit.\n"
        source += "let embeddedMigrationFiles: [(name: String, base64: String)] = [\n"
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let data = try Data(contentsOf: url)
            source += "    (name: \"\(url.lastPathComponent)\", base64: \"\(data.base64EncodedString())\"),\n"
        }
        source += "]\n"
        try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    }
}
