/// The OpenAPI 3.1 document, generated from `APIOperations.all` and `APISchemas`.
public enum OpenAPIDocument {
    /// Built once: the document is constant for a build.
    public static let json: String = tree.serialized()

    public static var tree: JSONTree {
        [
            "openapi": "3.1.0",
            "info": [
                // ASCII, so the package name a client generator derives from it installs.
                "title": "Chidian API",
                "version": "1",
                "description": .string(overview),
            ],
            "tags": .array(tags.map { ["name": .string($0)] }),
            "paths": paths(APIOperations.all),
            "components": [
                "schemas": APISchemas.all.merging(["ProblemCode": problemCodeSchema]),
                "securitySchemes": [
                    "bearerAuth": [
                        "type": "http", "scheme": "bearer",
                        "description":
                            "A token from register or login. Missing where needed: 401 `login_required`; unknown, expired or revoked: 401 `invalid_token`.",
                    ],
                    "visitorId": [
                        "type": "apiKey", "in": "header", "name": "X-Visitor-Id",
                        "description":
                            "An anonymous visitor: 8–64 of [A-Za-z0-9_-], else 400 `invalid_visitor_id`. Ignored when a token is sent.",
                    ],
                ],
                "headers": headers,
            ],
        ]
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

    static let headers: JSONTree = [
        "XRequestId": [
            "description": "The request's id, also in its log lines and in any problem body.",
            "schema": ["type": "string"],
        ],
        "XContentTypeOptions": ["description": "Always `nosniff`.", "schema": ["const": "nosniff"]],
        "ETag": [
            "description": "`\"<version>\"` for JSON resources; the content hash for image bytes.",
            "schema": ["type": "string"],
        ],
        "Location": ["description": "The new resource's path.", "schema": ["type": "string"]],
        "RetryAfter": [
            "description": "Seconds to wait before trying again.", "schema": ["type": "string", "pattern": "^[0-9]+$"],
        ],
        "CacheControl": ["description": "`public, max-age=31536000, immutable`.", "schema": ["type": "string"]],
        "ContentSecurityPolicy": [
            "description": "`default-src 'none'; sandbox`: served images never run script.",
            "schema": ["type": "string"],
        ],
    ]

    /// A response header, written out rather than referenced: a `$ref` cannot carry `required`.
    static func header(_ name: String, required: Bool) -> JSONTree {
        let component = headers[name.replacingOccurrences(of: "-", with: "")] ?? ["schema": ["type": "string"]]
        return component.merging(["required": .bool(required)])
    }

    /// Headers every response carries.
    static let commonHeaders: [(String, JSONTree)] = [
        ("X-Request-Id", header("X-Request-Id", required: true)),
        ("X-Content-Type-Options", header("X-Content-Type-Options", required: true)),
    ]

    static func paths(_ operations: [APIOperation]) -> JSONTree {
        var paths: [(String, JSONTree)] = []
        for operation in operations {
            let entry: JSONTree = .object([(operation.method, self.operation(operation))])
            if let index = paths.firstIndex(where: { $0.0 == operation.path }) {
                paths[index].1 = paths[index].1.merging(entry)
            } else {
                paths.append((operation.path, entry))
            }
        }
        return .object(paths)
    }

    static let pagingParameters: [JSONTree] = [
        [
            "name": "limit", "in": "query", "required": false, "description": "Items per page, 1–100.",
            "schema": ["type": "integer", "minimum": 1, "maximum": 100, "default": 20],
        ],
        [
            "name": "cursor", "in": "query", "required": false, "description": "The `nextCursor` of the previous page.",
            "schema": ["type": "string"],
        ],
    ]

    static func operation(_ operation: APIOperation) -> JSONTree {
        let problems = operation.allProblems
        var lines = operation.description.isEmpty ? [] : [operation.description, ""]
        lines.append("Problem codes:")
        for status in problems.keys.sorted() {
            lines.append("* \(status): " + problems[status]!.map { "`\($0)`" }.joined(separator: ", "))
        }
        var tree: JSONTree = [
            "operationId": .string(operation.operationId),
            "tags": [.string(operation.tag)],
            "summary": .string(operation.summary),
            "description": .string(lines.joined(separator: "\n")),
            "security": security(operation.access),
        ]
        let parameters = operation.parameters + (operation.paged ? pagingParameters : [])
        if !parameters.isEmpty { tree = tree.merging(["parameters": .array(parameters)]) }
        if let body = operation.body { tree = tree.merging(["requestBody": requestBody(body)]) }
        var responses: [(String, JSONTree)] = operation.successes.map { (String($0.status), success($0)) }
        for status in problems.keys.sorted() {
            responses.append((String(status), problem(status: status, codes: problems[status]!)))
        }
        return tree.merging(["responses": .object(responses)])
    }

    static func security(_ access: APIOperation.Access) -> JSONTree {
        switch access {
        case .operations: return []
        case .anyone, .viewer: return [[:], ["bearerAuth": []], ["visitorId": []]]
        case .signedIn: return [["bearerAuth": []]]
        }
    }

    static func requestBody(_ body: APIOperation.Body) -> JSONTree {
        switch body {
        case .json(let schema):
            return ["required": true, "content": ["application/json": ["schema": APISchemas.ref(schema)]]]
        case .image:
            let binary: JSONTree = ["schema": ["type": "string", "format": "binary"]]
            return [
                "required": true,
                "content": [
                    "image/jpeg": binary, "image/png": binary, "image/webp": binary, "image/gif": binary,
                    "multipart/form-data": ["schema": APISchemas.ref("ImageUpload")],
                ],
            ]
        }
    }

    static func success(_ success: APIOperation.Success) -> JSONTree {
        var headers = commonHeaders
        for name in success.headers { headers.append((name, header(name, required: true))) }
        var tree: JSONTree = ["description": .string(success.description), "headers": .object(headers)]
        if let schema = success.schema {
            let content: JSONTree
            switch schema {
            case "Metrics": content = ["text/plain": ["schema": APISchemas.ref(schema)]]
            case "ImageBytes":
                let bytes: JSONTree = ["schema": APISchemas.ref(schema)]
                content = ["image/jpeg": bytes, "image/png": bytes, "image/webp": bytes, "image/gif": bytes]
            default: content = ["application/json": ["schema": APISchemas.ref(schema)]]
            }
            tree = tree.merging(["content": content])
        }
        return tree
    }

    /// Codes that always come with `Retry-After`.
    static let retryCodes: Set<String> = ["database_unavailable", "query_timeout", "too_many_attempts", "busy"]

    static func problem(status: Int, codes: [String]) -> JSONTree {
        var headers = commonHeaders
        if codes.contains(where: retryCodes.contains) {
            headers.append(("Retry-After", header("Retry-After", required: codes.allSatisfy(retryCodes.contains))))
        }
        // The plain Problem schema, so generated clients decode every error into one typed Problem (an `allOf`
        // narrowing `status` and `code` per response is more than generators merge: they dropped the responses).
        // The codes this response can carry are in its description and in `x-problem-codes`.
        return [
            "description": .string(codes.map { "`\($0)`" }.joined(separator: ", ")),
            "headers": .object(headers),
            "content": ["application/problem+json": ["schema": APISchemas.ref("Problem")]],
            "x-problem-codes": .array(codes.map { .string($0) }),
        ]
    }

    /// Every problem code any operation answers, plus the ones any route can meet.
    public static var problemCodes: [String] {
        var codes = Set(APIOperations.all.flatMap { $0.allProblems.values.flatMap { $0 } })
        codes.insert("not_found")
        return codes.sorted()
    }

    static var problemCodeSchema: JSONTree {
        [
            "type": "string", "enum": .array(problemCodes.map { .string($0) }),
            "description": "Every `code` the API answers with. `not_found` is for unknown routes.",
        ]
    }
}
