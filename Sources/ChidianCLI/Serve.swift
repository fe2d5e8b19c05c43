import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API.")

    @Option(help: "Address to listen on (default: HOST or 127.0.0.1).") var host: String?
    @Option(help: "Port to listen on (default: PORT or 8080).") var port: Int?
    @Flag(help: "Apply pending migrations before serving instead of refusing to start.") var migrate = false

    func run() async throws {
        var (config, logger) = try CLI.setUp()
        if let host { config.host = host }
        if let port {
            guard (1...65535).contains(port) else { throw ValidationError("--port must be 1...65535") }
            config.port = port
        }
        try await Server.run(config: config, migrate: migrate, logger: logger)
    }
}
