import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// Every parameter of every operation in the served OpenAPI document, sent hostile values (NUL and other control
/// characters, invalid percent-encoding, invalid UTF-8 and a lone surrogate, overlong texts), anonymous and signed
/// in: never a 5xx, and no problem detail carries a control character back. schemathesis found
/// `GET /v1/pick?skip=%00` answering 500 after 7,694 cases; this walks them all every run.
@Suite struct HostileParameterTests {
    /// Raw, as they would arrive in a URI (percent-encoded where a URI needs it).
    static let values = [
        "%00", "a%00b", "%01%1F", "%7F", "%C2%85", "%ZZ", "%", "%E0%80%AF", "%ED%A0%80", "%FF%FE",
        String(repeating: "x", count: 5_000), String(repeating: "%E9%B1%BC", count: 2_000), "-1", "1e99",
        "0x10", "%20", "%2C%2C%2C",
    ]
    /// Header values can hold no control character; these are what is left to a hostile client.
    static let headerValues = ["\"\"", "W/\"x\"", String(repeating: "x", count: 5_000), "\u{7F}", "0/ZZ", "-1"]

    struct Parameter {
        let name: String
        let location: String
    }

    struct Operation {
        let method: HTTPRequest.Method
        let path: String
        let parameters: [Parameter]
    }

    /// The operations of the served document, but the live stream (it answers by staying open).
    static func operations(_ client: some TestClientProtocol) async throws -> [Operation] {
        let document = try await client.send(.get, "/openapi.json").json()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let shared = (document["components"] as? [String: Any])?["parameters"] as? [String: [String: Any]] ?? [:]
        var operations: [Operation] = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for (name, value) in item.sorted(by: { $0.key < $1.key }) {
                guard let method = HTTPRequest.Method(name.uppercased()), let operation = value as? [String: Any],
                    path != "/v1/me/notifications/stream"
                else { continue }
                let listed = (operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter in
                    (parameter["$ref"] as? String).map { shared[String($0.split(separator: "/").last ?? "")] }
                        ?? parameter
                }
                operations.append(
                    Operation(
                        method: method, path: path,
                        parameters: listed.compactMap { parameter in
                            guard let name = parameter["name"] as? String, let location = parameter["in"] as? String
                            else { return nil }
                            return Parameter(name: name, location: location)
                        }))
            }
        }
        return operations
    }

    /// The operation's path with every path parameter filled: `hostile` for `target`, a plausible id elsewhere.
    static func uri(_ operation: Operation, _ target: Parameter, _ value: String) -> String {
        var path = operation.path
        for parameter in operation.parameters where parameter.location == "path" {
            path = path.replacingOccurrences(
                of: "{\(parameter.name)}",
                with: parameter.name == target.name && target.location == "path" ? value : "s001")
        }
        return target.location == "query" ? "\(path)?\(target.name)=\(value)" : path
    }

    @Test(arguments: [false, true]) func noParameterOfAnyOperationAnswersAServerError(signedIn: Bool) async throws {
        try await TestApp.run { client, app in
            // setup: a store and a review the ids can name, and a manager to sign in as
            let manager = try await client.register("敌意店长", role: "manager")
            let category = try await StoreFixture.category(app, "川菜")
            _ = try await StoreFixture.store(client, manager, name: "敌意小馆", categoryID: category)
            let token = signedIn ? manager.token : nil
            var sent = 0
            for operation in try await Self.operations(client) {
                // signing out would end the signed-in half early
                if signedIn && operation.path == "/v1/auth/logout" { continue }
                for parameter in operation.parameters {
                    let hostile = parameter.location == "header" ? Self.headerValues : Self.values
                    for value in hostile {
                        var headers: HTTPFields = [:]
                        if parameter.location == "header", let name = HTTPField.Name(parameter.name) {
                            headers[name] = value
                        }
                        let uri = Self.uri(operation, parameter, value)
                        // MUT
                        let response = try await client.send(
                            operation.method, uri, body: [:], token: token, headers: headers)
                        sent += 1
                        // validate
                        let label = "\(operation.method) \(uri.prefix(120)) [\(parameter.location) \(parameter.name)]"
                        #expect(response.status.code < 500, "\(label): \(response.status) \(response.text.prefix(300))")
                        if response.problemCode != nil, let detail = try response.json()["detail"] as? String {
                            #expect(
                                !detail.unicodeScalars.contains { $0.properties.generalCategory == .control },
                                "\(label) echoes a control character: \(detail.debugDescription.prefix(200))")
                        }
                    }
                }
            }
            #expect(sent > 1_000)
        }
    }
}
