import ChidianCore
import Foundation
import OpenAPIKit

/// The OpenAPI 3.1 document, built from `APIOperations.all` and `APISchemas` as OpenAPIKit values, so the library
/// that defines the format encodes (and the tests validate) it.
public enum OpenAPIDocument {
    /// Encoded once: the document is constant for a build. Keys sorted, so every process writes the same bytes
    /// (dictionaries hash in a per-process order) and `chidian openapi` reproduces the served document exactly;
    /// indented, so a change to the committed `openapi.json` shows as a readable diff.
    public static let json: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys, .prettyPrinted]
        // Every value is built in code; encoding cannot fail short of a bug the tests catch.
        let data = try! encoder.encode(document)
        return String(decoding: data, as: UTF8.self)
    }()

    public static var document: OpenAPI.Document {
        OpenAPI.Document(
            openAPIVersion: .v3_1_0,
            // ASCII, so the package name a client generator derives from it installs.
            info: .init(title: "Chidian API", description: overview, version: "1"),
            servers: [],
            paths: paths(APIOperations.all),
            components: .init(
                schemas: schemas, headers: headers.mapValues { .b($0) },
                securitySchemes: [
                    "bearerAuth": .b(
                        .http(
                            scheme: "bearer",
                            description:
                                "A token from register or login. Missing where needed: 401 `login_required`; unknown, expired or revoked: 401 `invalid_token`."
                        )),
                    "visitorId": .b(
                        .apiKey(
                            name: "X-Visitor-Id", location: .header,
                            description:
                                "An anonymous visitor: 8–64 of [A-Za-z0-9_-], else 400 `invalid_visitor_id`. Ignored when a token is sent."
                        )),
                ]),
            tags: tags.map { OpenAPI.Tag(name: $0) })
    }

    static var schemas: OpenAPI.ComponentDictionary<JSONSchema> {
        var schemas = OpenAPI.ComponentDictionary<JSONSchema>()
        for (name, schema) in APISchemas.all + [("ProblemCode", problemCodeSchema)] {
            schemas[OpenAPI.ComponentKey(rawValue: name)!] = schema
        }
        return schemas
    }

    static let overview = """
        Chidian (今天吃点啥, "what shall we eat today") is a restaurant-review app; this is its HTTP API: stores, \
        reviews and notices, favorites, promotion, search and a personalised feed.

        * JSON in UTF-8 with camelCase fields; ids are strings; timestamps RFC 3339 in UTC; money is an integer.
        * Errors are `application/problem+json` with a stable snake_case `code` (listed per operation and in the \
        `ProblemCode` schema) and the `requestId` also sent as `X-Request-Id`. Unknown routes (and unknown methods \
        on known paths): 404 `not_found`. Bad JSON or a wrong field type: 400 `invalid_body` naming the field. JSON \
        bodies over 1 MiB: 413 `body_too_large` (images: 8 MiB, `image_too_large`). The database unreachable: 503 \
        `database_unavailable` with `Retry-After` within the configured wait (3 s by default), never a hang. A \
        statement past its deadline (`STATEMENT_TIMEOUT_MS`, 2 s by default) is cancelled by PostgreSQL: 503 \
        `query_timeout` with `Retry-After`.
        * Lists take `limit` (1–100, default 20) and an opaque `cursor`, and answer `{items, nextCursor}` \
        (`nextCursor` null on the last page); pages are keyset pages and never repeat or skip an item. A cursor \
        that is not one this server issued for that list (its shape, types and sizes are checked; at most 4,096 \
        characters): 400 `invalid_cursor`.
        * Lengths: a limit of N characters counts characters as people see them (grapheme clusters, Swift's \
        `String.count`) and also allows at most 8 × N Unicode code points (the bound the database keeps); \
        beyond either, the field's 400. Text never contains NUL.
        * Where a field is an integer (`rating`, `amount`, `limit`), only a JSON integer is one: `5.0`, `5e0` and \
        `"5"` are the field's 400.
        * Passwords are used exactly as typed: a NUL is 400 `invalid_password`, more than 72 bytes of UTF-8 is 400 \
        `password_too_long` (bcrypt would ignore the rest).
        * Editable resources carry `version` and `ETag: "<version>"`; `PATCH` and `DELETE` honour `If-Match` (412 \
        `version_conflict` when stale). Deletes answer 204.
        * Every response carries `X-Content-Type-Options: nosniff` and `X-Request-Id`.
        * Seed import and export (`chidian seed DIR`, `chidian export DIR`) and administration (`chidian user`, \
        `store`, `category`, `comment hide`) are command-line only, not HTTP.
        """

    static var tags: [String] {
        var seen: [String] = []
        for operation in APIOperations.all where !seen.contains(operation.tag) { seen.append(operation.tag) }
        return seen
    }

    /// The response headers, by component name (written out in each response: a `$ref` cannot carry `required`).
    static let headers: OrderedDictionary<OpenAPI.ComponentKey, OpenAPI.Header> = [
        "XRequestId": .init(
            schema: .string, description: "The request's id, also in its log lines and in any problem body."),
        "XContentTypeOptions": .init(schema: APISchemas.oneOf(["nosniff"]), description: "Always `nosniff`."),
        "ETag": .init(
            schema: .string,
            description: """
                `"<version>"` for stores and comments (a store's version moves with everything it shows); a hash of \
                the body for lists; the content hash for image bytes.
                """),
        "Location": .init(schema: .string, description: "The new resource's path."),
        "RetryAfter": .init(
            schema: .string(pattern: "^[0-9]+$"), description: "Seconds to wait before trying again."),
        "CacheControl": .init(
            schema: .string,
            description: """
                Images: `public, max-age=31536000, immutable`. Cached reads: `public, max-age=1` when anonymous, \
                `private, no-cache` for a signed-in viewer.
                """),
        "Vary": .init(schema: .string, description: "`Authorization`: a signed-in answer differs."),
        "ContentSecurityPolicy": .init(
            schema: .string, description: "`default-src 'none'; sandbox`: served images never run script."),
        "ContentDisposition": .init(
            schema: .string, description: "`attachment; filename=\"chidian-export-<date>.zip\"`: a download."),
    ]

    /// A response header by its HTTP name, with `required` set.
    static func header(_ name: String, required: Bool) -> Either<
        OpenAPI.Reference<OpenAPI.Header>, OpenAPI.Header
    > {
        let component = OpenAPI.ComponentKey(rawValue: name.replacingOccurrences(of: "-", with: ""))
        let header = component.flatMap { headers[$0] } ?? .init(schema: .string)
        return .b(
            OpenAPI.Header(
                schemaOrContent: header.schemaOrContent, description: header.description, required: required))
    }

    /// Headers every response carries.
    static var commonHeaders: OpenAPI.Header.Map {
        [
            "X-Request-Id": header("X-Request-Id", required: true),
            "X-Content-Type-Options": header("X-Content-Type-Options", required: true),
        ]
    }

    static func paths(_ operations: [APIOperation]) -> OpenAPI.PathItem.Map {
        var paths = OpenAPI.PathItem.Map()
        for operation in operations {
            let path = OpenAPI.Path(rawValue: operation.path)
            var item = paths[path]?.b ?? OpenAPI.PathItem()
            item.set(
                operation: self.operation(operation), for: OpenAPI.HttpMethod(rawValue: operation.method.uppercased())!)
            paths[path] = .b(item)
        }
        return paths
    }

    static let pagingParameters: [OpenAPI.Parameter] = [
        APIOperations.query("limit", "Items per page, 1–100.", schema: APISchemas.int(min: 1, max: 100, default: 20)),
        APIOperations.query("cursor", "The `nextCursor` of the previous page.", schema: .string),
    ]

    static func operation(_ operation: APIOperation) -> OpenAPI.Operation {
        let problems = operation.allProblems
        var lines = operation.description.isEmpty ? [] : [operation.description, ""]
        if let kind = operation.rateLimit, let limit = RateLimits.defaults[kind] {
            lines.append(
                "Rate limit: \(limit), per signed-in user, else per client address (the default; `\(kind.variable)`; "
                    + "`RATE_LIMITS=off` lifts it): 429 `rate_limited` with `Retry-After`.")
            lines.append("")
        }
        lines.append("Problem codes:")
        for status in problems.keys.sorted() {
            lines.append("* \(status): " + problems[status]!.map { "`\($0)`" }.joined(separator: ", "))
        }
        var responses = OpenAPI.Response.Map()
        for success in operation.successes { responses[.status(code: success.status)] = .b(self.success(success)) }
        for status in problems.keys.sorted() {
            responses[.status(code: status)] = .b(problem(codes: problems[status]!))
        }
        return OpenAPI.Operation(
            tags: [operation.tag], summary: operation.summary, description: lines.joined(separator: "\n"),
            operationId: operation.operationId,
            parameters: (operation.parameters + (operation.paged ? pagingParameters : [])).map { .b($0) },
            requestBody: operation.body.map(requestBody), responses: responses, security: security(operation.access))
    }

    static func security(_ access: APIOperation.Access) -> [OpenAPI.SecurityRequirement] {
        switch access {
        case .operations: return []
        case .anyone, .viewer:
            return [[:], [.component(named: "bearerAuth"): []], [.component(named: "visitorId"): []]]
        case .signedIn: return [[.component(named: "bearerAuth"): []]]
        }
    }

    static let imageTypes = ["image/jpeg", "image/png", "image/webp", "image/gif"].map {
        OpenAPI.ContentType(rawValue: $0)!
    }

    static func requestBody(_ body: APIOperation.Body) -> OpenAPI.Request {
        switch body {
        case .json(let schema):
            return OpenAPI.Request(content: [.json: .b(.init(schema: APISchemas.ref(schema)))], required: true)
        case .image:
            var content = OpenAPI.Content.Map()
            for type in imageTypes { content[type] = .b(OpenAPI.Content(schema: APISchemas.binary)) }
            content[.multipartForm] = .b(.init(schema: APISchemas.ref("ImageUpload")))
            return OpenAPI.Request(content: content, required: true)
        }
    }

    static func success(_ success: APIOperation.Success) -> OpenAPI.Response {
        var headers = commonHeaders
        for name in success.headers { headers[name] = header(name, required: true) }
        var content = OpenAPI.Content.Map()
        if let schema = success.schema {
            switch schema {
            case "Metrics": content[.txt] = .b(.init(schema: APISchemas.ref(schema)))
            case "NotificationStream": content[.eventStream] = .b(.init(schema: APISchemas.ref(schema)))
            case "ImageBytes": for type in imageTypes { content[type] = .b(.init(schema: APISchemas.ref(schema))) }
            case "StoreInsights":
                content[.json] = .b(.init(schema: APISchemas.ref(schema)))
                content[OpenAPI.ContentType(rawValue: "text/csv")!] = .b(.init(schema: APISchemas.ref("InsightsCSV")))
            case "ExportArchive":
                content[.init(rawValue: "application/zip")!] = .b(.init(schema: APISchemas.ref(schema)))
            default: content[.json] = .b(.init(schema: APISchemas.ref(schema)))
            }
        }
        return OpenAPI.Response(description: success.description, headers: headers, content: content)
    }

    /// Codes that always come with `Retry-After`.
    static let retryCodes: Set<String> = [
        "database_unavailable", "query_timeout", "too_many_attempts", "busy", "rate_limited", "too_many_streams",
        "server_busy",
    ]

    static let problemJSON = OpenAPI.ContentType(rawValue: "application/problem+json")!

    static func problem(codes: [String]) -> OpenAPI.Response {
        var headers = commonHeaders
        if codes.contains(where: retryCodes.contains) {
            headers["Retry-After"] = header("Retry-After", required: codes.allSatisfy(retryCodes.contains))
        }
        // The plain Problem schema, so generated clients decode every error into one typed Problem (an `allOf`
        // narrowing `status` and `code` per response is more than generators merge: they dropped the responses).
        // The codes this response can carry are in its description and in `x-problem-codes`.
        return OpenAPI.Response(
            description: codes.map { "`\($0)`" }.joined(separator: ", "), headers: headers,
            content: [problemJSON: .b(.init(schema: APISchemas.ref("Problem")))],
            vendorExtensions: ["x-problem-codes": AnyCodable(codes)])
    }

    /// Every problem code any operation answers, plus the ones any route can meet.
    public static var problemCodes: [String] {
        var codes = Set(APIOperations.all.flatMap { $0.allProblems.values.flatMap { $0 } })
        codes.insert("not_found")
        return codes.sorted()
    }

    static var problemCodeSchema: JSONSchema {
        APISchemas.oneOf(
            problemCodes, description: "Every `code` the API answers with. `not_found` is for unknown routes.")
    }
}
