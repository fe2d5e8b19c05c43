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
            return [
                // Migrations only (`NNN_name.sql`): sql/schema.sql is generated from them (scripts/schema.sh).
                try embed(
                    files(in: context.package.directoryURL.appending(path: "sql"), extensions: ["sql"])
                        .filter { $0.lastPathComponent.first?.isNumber ?? false },
                    as: "embeddedMigrationFiles", context: context, tool: tool)
            ]
        }
        let web = target.directoryURL
        return [
            try embed(
                files(in: web.appending(path: "Templates"), extensions: ["mustache"])
                    + files(in: web.appending(path: "Assets"), extensions: ["css", "js", "svg", "png"]),
                as: "embeddedWebFiles", context: context, tool: tool)
        ]
    }

    func files(in directory: URL, extensions: Set<String>) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func embed(_ files: [URL], as variable: String, context: PluginContext, tool: URL) throws -> Command {
        let output = context.pluginWorkDirectoryURL.appending(path: "\(variable).swift")
        return .buildCommand(
            displayName: "Embedding \(files.count) files as \(variable)",
            executable: tool,
            arguments: [output.path, variable] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output]
        )
    }
}
