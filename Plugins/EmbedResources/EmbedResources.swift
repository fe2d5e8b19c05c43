import Foundation
import PackagePlugin

/// Embeds the package's `sql/NNN_name.sql` migrations into the core, and the web client's templates and assets into
/// the web target, as Swift source, so the binary needs no files beside it and works from any directory.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedFiles").url
        // The migrations go into the core (its migrator); the templates and assets into the target that holds them.
        if target.name == "ChidianCore" {
            // Migrations only (`NNN_name.sql`): sql/schema.sql is generated from them (scripts/schema.sh).
            let sql = context.package.directoryURL.appending(path: "sql")
            return [
                try embed(
                    [(sql, ["sql"])], numbered: true, as: "embeddedMigrationFiles", context: context, tool: tool)
            ]
        }
        let web = target.directoryURL
        return [
            try embed(
                [
                    (web.appending(path: "Templates"), ["mustache"]),
                    (web.appending(path: "Assets"), ["css", "js", "svg", "png"]),
                ],
                numbered: false, as: "embeddedWebFiles", context: context, tool: tool)
        ]
    }

    func files(in directory: URL, extensions: Set<String>) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The tool lists the directories when it runs; they are inputs beside their files, so adding or removing a
    /// file reruns it as editing one does.
    func embed(
        _ directories: [(URL, [String])], numbered: Bool, as variable: String, context: PluginContext, tool: URL
    ) throws -> Command {
        let output = context.pluginWorkDirectoryURL.appending(path: "\(variable).swift")
        let files = try directories.flatMap { try self.files(in: $0.0, extensions: Set($0.1)) }
        return .buildCommand(
            displayName:
                "Embedding the files of \(directories.map(\.0.lastPathComponent).joined(separator: ", ")) as \(variable)",
            executable: tool,
            arguments: [output.path, variable] + (numbered ? ["--numbered"] : [])
                + directories.map { "\($0.0.path):\($0.1.joined(separator: ","))" },
            inputFiles: directories.map(\.0) + files,
            outputFiles: [output]
        )
    }
}
