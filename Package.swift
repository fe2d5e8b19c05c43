// swift-tools-version:6.2
import PackageDescription

// Our own code builds without warnings: a warning is an error here, so none hides among a thousand build lines.
let ours: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "chidian",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chidian", targets: ["ChidianCLI"])
    ],
    dependencies: [
        // Pinned to the minor version tested (Package.resolved is not committed): we rely on their behaviour
        // beyond the API. PostgresNIO: the closed-connection hang `whileOpen` guards and prepared-statement
        // naming; Hummingbird: body-limit errors and the test client; hummingbird-auth: the bcrypt hash format;
        // ArgumentParser: the help and error text the CLI tests read; Prometheus: the exposition text.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", .upToNextMinor(from: "2.28.1")),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", .upToNextMinor(from: "2.5.0")),
        .package(url: "https://github.com/vapor/postgres-nio.git", .upToNextMinor(from: "1.33.2")),
        .package(url: "https://github.com/apple/swift-argument-parser.git", .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", .upToNextMinor(from: "2.4.1")),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The OpenAPI types /openapi.json is built from (and validated with); without the ExternalLoading trait
        // (remote $refs), which the document does not use and which builds much slower.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", .upToNextMinor(from: "6.4.0"), traits: []),
        // zlib for the rendered pages kept in the read cache (a fifth of their size).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", .upToNextMinor(from: "1.5.0")),
    ],
    targets: [
        // The dependency rule: Core knows no HTTP routes and no pages; the API and the web each depend on Core and
        // never on each other; ChidianApp composes them; the tools and the CLI sit on top (docs/ARCHITECTURE.md).
        .target(
            name: "ChidianCore",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: ours,
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "ChidianAPI",
            dependencies: [
                "ChidianCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
            ],
            swiftSettings: ours
        ),
        .target(
            name: "ChidianWeb",
            dependencies: [
                "ChidianCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Templates", "Assets"],
            swiftSettings: ours,
            plugins: ["EmbedResources"]
        ),
        .target(
            name: "ChidianApp",
            dependencies: [
                "ChidianCore", "ChidianAPI", "ChidianWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: ours
        ),
        .target(
            name: "ChidianTools",
            dependencies: [
                "ChidianCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: ours
        ),
        // Reads sql/*.sql into the core and the web client's files into the web target, so the binary works from any directory.
        .executableTarget(name: "EmbedFiles", swiftSettings: ours),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["EmbedFiles"]),
        .executableTarget(
            name: "ChidianCLI",
            dependencies: [
                "ChidianCore", "ChidianAPI", "ChidianApp", "ChidianTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: ours
        ),
        .testTarget(
            name: "ChidianTests",
            dependencies: [
                "ChidianCore", "ChidianAPI", "ChidianWeb", "ChidianApp", "ChidianTools",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
            ],
            swiftSettings: ours
        ),
    ],
    swiftLanguageModes: [.v6]
)
