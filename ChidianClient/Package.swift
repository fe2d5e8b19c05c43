// swift-tools-version:6.2
import PackageDescription

// The Swift client of the Chidian API: swift-openapi-generator's build plugin generates the types and the client
// from ../openapi.json (linked into the target's folder) on every build; Sources/ChidianClient holds the
// hand-written layer over it. A package of its own, so the server's build never carries the generator.
let package = Package(
    name: "ChidianClient",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "ChidianClient", targets: ["ChidianClient"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", .upToNextMinor(from: "1.14.3")),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // URLSession on Apple platforms; AsyncHTTPClient (SwiftNIO) on Linux, where URLSession cannot stream.
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        // On Linux the client's own transport over AsyncHTTPClient (BufferedBodyTransport.swift says why).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        .target(
            name: "ChidianClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: [.iOS, .macOS, .tvOS, .watchOS, .visionOS])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
            ],
            // The generated code included: a document the generator reads with a warning fails the build.
            swiftSettings: [.treatAllWarnings(as: .error)],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .testTarget(
            name: "ChidianClientTests", dependencies: ["ChidianClient"],
            swiftSettings: [.treatAllWarnings(as: .error)]),
    ],
    swiftLanguageModes: [.v6]
)
