import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenAPIKit
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Keeps `GET /openapi.json` honest: every route the router has is documented, nothing documented is missing,
/// and every problem code of the contract appears.
@Suite struct OpenAPITests {
    /// "GET /v1/stores/{id}" for every route the router registered.
    static func registeredRoutes(_ app: TestApp) -> Set<String> {
        Set(buildRouter(app.services).routes.map { "\($0.method.rawValue) \($0.path.description)" })
    }

    static var documentedRoutes: Set<String> {
        Set(APIOperations.all.map { "\($0.method.uppercased()) \($0.path)" })
    }

    /// The web client's pages and forms (HTML, not part of the JSON API the document describes).
    static let webRoutes: Set<String> = [
        "GET /", "GET /stores/{id}", "GET /comments/{id}", "GET /users/{id}", "GET /search", "GET /login",
        "POST /login", "GET /register", "POST /register", "POST /logout", "POST /stores/{id}/favorite",
        "POST /stores/{id}/unfavorite", "POST /comments/{id}/like", "POST /comments/{id}/unlike",
        "GET /assets/{name}", "POST /stores/{id}/comments", "GET /me", "POST /me/name", "POST /me/password",
        "POST /me/avatar", "GET /me/export", "POST /me/delete", "POST /interests/reset", "GET /manage",
        "POST /manage/stores", "GET /manage/stores/{id}", "POST /manage/stores/{id}",
        "POST /manage/stores/{id}/promotions", "GET /manage/stores/{id}/insights.csv", "POST /comments/{id}/reply",
        "GET /admin", "POST /admin/comments/{id}", "POST /admin/comments/{id}/recommended",
        "POST /admin/stores/{id}/archive", "POST /admin/stores/{id}/restore",
        "POST /admin/categories", "POST /admin/categories/{id}", "POST /comments/{id}/report", "GET /pick",
        "GET /me/notifications", "GET /me/notifications/count", "POST /me/notifications/read",
        "POST /users/{id}/follow", "POST /users/{id}/unfollow", "POST /coupons/{id}/claim", "GET /me/coupons",
        "POST /manage/stores/{id}/coupons", "POST /manage/coupons/{id}/end", "POST /manage/stores/{id}/redemptions",
        "GET /manifest.webmanifest", "GET /sw.js", "GET /offline", "GET /stores/{id}/not-recommended",
    ]

    @Test func everyRegisteredRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        try await TestApp.run { _, app in
            // MUT
            let all = Self.registeredRoutes(app)
            // validate
            #expect(all.isSuperset(of: Self.webRoutes), "\(Self.webRoutes.subtracting(all).sorted())")
            let registered = all.subtracting(Self.webRoutes)
            #expect(registered.count >= 38, "\(registered.sorted())")
            let undocumented = registered.subtracting(Self.documentedRoutes)
            let missing = Self.documentedRoutes.subtracting(registered)
            #expect(undocumented.isEmpty, "routes without documentation in APIOperations: \(undocumented.sorted())")
            #expect(missing.isEmpty, "documented routes the router lacks: \(missing.sorted())")
        }
    }

    @Test func servedDocumentIsTheGeneratedOneAndParses() async throws {
        try await TestApp.run { client, _ in
            // MUT
            let response = try await client.send(.get, "/openapi.json")
            // validate
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.text == OpenAPIDocument.json)
            let document = try response.json()
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var served: Set<String> = []
            for (path, methods) in paths {
                for method in methods.keys { served.insert("\(method.uppercased()) \(path)") }
            }
            #expect(served == Self.documentedRoutes)
            for required in ["GET /health", "GET /ready", "GET /metrics", "GET /openapi.json"] {
                #expect(served.contains(required), "\(required)")
            }
        }
    }

    /// Every `$ref` resolves, every `{param}` of a path is declared, operation ids are unique.
    @Test func documentIsInternallyConsistent() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let components = try #require(document["components"] as? [String: [String: Any]])
        var refs: Set<String> = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let ref = object["$ref"] as? String { refs.insert(ref) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        for ref in refs {
            let parts = ref.split(separator: "/").map(String.init)  // #, components, kind, name
            #expect(parts.count == 4 && components[parts[2]]?[parts[3]] != nil, "unresolved \(ref)")
        }
        for schema in [
            "User", "Session", "Category", "Store", "Comment", "Image", "Problem", "StorePage", "CommentPage",
            "PromotionPage", "SearchPage", "FeedPage",
        ] {
            #expect(components["schemas"]?[schema] != nil, "missing schema \(schema)")
        }
        let ids = APIOperations.all.map(\.operationId)
        #expect(Set(ids).count == ids.count)
        for operation in APIOperations.all {
            let placeholders = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map {
                String($0.dropFirst().dropLast())
            }
            let declared = operation.parameters.filter { $0.location == .path }.map(\.name)
            #expect(
                placeholders == declared, "\(operation.operationId): path parameters \(placeholders) vs \(declared)")
            #expect(!operation.successes.isEmpty)
            // Every problem response names its codes.
            for (status, codes) in operation.allProblems {
                #expect((400...599).contains(status) && !codes.isEmpty, "\(operation.operationId) \(status)")
            }
        }
    }

    /// docs/API.md names problem codes in backticks after a status (`400 \`invalid_body\``); each must be documented.
    @Test func everyProblemCodeOfTheContractIsDocumented() throws {
        var codes: Set<String> = [
            "login_required", "invalid_token", "not_found", "invalid_body", "version_conflict", "store_not_found",
            "comment_not_found", "user_not_found", "image_not_found", "invalid_visitor_id", "database_unavailable",
            "name_required", "invalid_name", "name_taken", "weak_password", "invalid_role", "wrong_password",
            "too_many_attempts", "manager_required", "unknown_category", "not_store_owner", "invalid_amount",
            "invalid_rating", "forbidden", "body_required", "body_too_long", "invalid_images", "not_author",
            "query_required", "query_too_long", "unsupported_media_type", "image_too_large", "invalid_image",
        ]
        // The reference in this repository: every code it names after a status must be in the document.
        let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../docs/API.md").standardized
        let text = try String(contentsOf: contract, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "[0-9]{3}\\s+`([a-z]+(?:_[a-z]+)+)`")
        let named = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
        #expect(named.count >= 30, "docs/API.md names too few codes to be the reference")
        codes.formUnion(named)
        let documented = Set(OpenAPIDocument.problemCodes)
        #expect(codes.subtracting(documented).isEmpty, "undocumented codes: \(codes.subtracting(documented).sorted())")
    }
}
