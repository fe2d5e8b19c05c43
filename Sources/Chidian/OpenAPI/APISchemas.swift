/// The component schemas: every object the API answers or accepts. Answer objects list every property as
/// required and allow no others, so schemathesis flags a response that drifts from what is written here.
enum APISchemas {
    static func ref(_ name: String) -> JSONTree { ["$ref": .string("#/components/schemas/\(name)")] }

    static let id: JSONTree = [
        "type": "string", "description": "An opaque id (ids from the JSON seed are kept as they are).",
    ]
    static let timestamp: JSONTree = ["type": "string", "format": "date-time", "description": "RFC 3339, UTC."]
    static let nullableString: JSONTree = ["type": ["string", "null"]]
    static let imagePath: JSONTree = [
        "type": "string", "pattern": "^/v1/images/", "description": "A path: /v1/images/{id}.",
    ]
    static let count: JSONTree = ["type": "integer", "minimum": 0]

    /// A closed object: every listed property is required unless named in `optional`.
    static func object(_ properties: [(String, JSONTree)], optional: Set<String> = [], description: String? = nil)
        -> JSONTree
    {
        var tree: JSONTree = [
            "type": "object",
            "required": .array(properties.map(\.0).filter { !optional.contains($0) }.map { .string($0) }),
            "properties": .object(properties),
            "additionalProperties": false,
        ]
        if let description { tree = tree.merging(["description": .string(description)]) }
        return tree
    }

    /// A request object: open to unknown fields (they are ignored), nothing required unless listed.
    static func request(_ properties: [(String, JSONTree)], required: [String] = [], description: String? = nil)
        -> JSONTree
    {
        var tree: JSONTree = [
            "type": "object", "required": .array(required.map { .string($0) }), "properties": .object(properties),
        ]
        if let description { tree = tree.merging(["description": .string(description)]) }
        return tree
    }

    static func page(of item: String) -> JSONTree {
        object(
            [
                ("items", ["type": "array", "items": ref(item)]),
                (
                    "nextCursor",
                    [
                        "type": ["string", "null"],
                        "description": "Pass as `cursor` for the next page; null on the last page.",
                    ]
                ),
            ],
            description:
                "A page of \(item)s, in keyset order: pages never repeat or skip an item while the data is unchanged.")
    }

    static var all: JSONTree {
        .object([
            (
                "Problem",
                object(
                    [
                        ("type", ["type": "string", "description": "https://chidian.dev/problems/<code with dashes>"]),
                        ("title", ["type": "string", "description": "The status's reason phrase."]),
                        ("status", ["type": "integer"]),
                        ("detail", ["type": "string", "description": "For people; never holds SQL or a stack trace."]),
                        (
                            "code",
                            [
                                "type": "string", "pattern": "^[a-z]+(_[a-z]+)*$",
                                "description": "Stable snake_case; what clients branch on.",
                            ]
                        ),
                        (
                            "requestId",
                            [
                                "type": "string",
                                "description":
                                    "The same as the `X-Request-Id` response header and the server's log lines.",
                            ]
                        ),
                    ], description: "An RFC 9457 problem, served as application/problem+json.")
            ),
            ("Health", object([("status", ["const": "ok"])])),
            (
                "Ready",
                object([
                    ("status", ["const": "ready"]),
                    (
                        "pools",
                        [
                            "type": "array",
                            "description":
                                "The primary, then each replica of DATABASE_READ_URLS as the server last saw it.",
                            "items": object(
                                [
                                    ("name", ["type": "string"]), ("role", ["enum": ["primary", "replica"]]),
                                    ("healthy", ["type": "boolean"]),
                                    ("lagSeconds", ["type": "number", "minimum": 0]),
                                    ("replayLSN", ["type": "string", "pattern": "^[0-9A-F]{1,8}/[0-9A-F]{1,8}$"]),
                                    ("problem", ["type": "string", "description": "Why a replica serves no reads."]),
                                ], optional: ["lagSeconds", "replayLSN", "problem"]),
                        ]
                    ),
                ])
            ),
            ("Metrics", ["type": "string", "description": "Prometheus text format 0.0.4."]),
            ("OpenAPIDocument", ["type": "object", "required": ["openapi", "info", "paths"]]),
            (
                "User",
                object([
                    ("id", id), ("name", ["type": "string", "minLength": 1]),
                    ("role", ["type": "string", "enum": ["user", "manager", "admin"]]),
                    ("avatarUrl", ["type": ["string", "null"], "description": "An image path, or null."]),
                    ("createdAt", timestamp),
                    ("reviewCount", count.merging(["description": "Visible reviews written (notices not counted)."])),
                ])
            ),
            (
                "Session",
                object([
                    ("token", ["type": "string", "description": "Send as `Authorization: Bearer <token>`."]),
                    ("user", ref("User")),
                ])
            ),
            ("CategoryRef", object([("id", id), ("name", ["type": "string"])])),
            ("Category", object([("id", id), ("name", ["type": "string"]), ("storeCount", count)])),
            ("CategoryList", object([("items", ["type": "array", "items": ref("Category")])])),
            (
                "Rating",
                object(
                    [
                        (
                            "average",
                            ["type": ["number", "null"], "description": "The plain average; null without reviews."]
                        ),
                        ("count", count),
                        (
                            "score",
                            [
                                "type": "number",
                                "description":
                                    "Bayesian average with prior C = 3.5 over m = 5 reviews: (sum + 17.5) / (count + 5). Sorts `sort=rating`.",
                            ]
                        ),
                    ])
            ),
            (
                "Store",
                object(
                    [
                        ("id", id), ("name", ["type": "string"]), ("category", ref("CategoryRef")),
                        ("description", ["type": "string"]), ("address", ["type": "string"]),
                        ("managerId", id), ("managerName", ["type": "string"]),
                        ("imageUrls", ["type": "array", "items": imagePath, "maxItems": 9]),
                        ("rating", ref("Rating")), ("favoriteCount", count),
                        (
                            "favorited",
                            [
                                "type": "boolean",
                                "description": "Whether the signed-in viewer favorited it; false for anyone else.",
                            ]
                        ),
                        ("promoted", ["type": "boolean", "description": "adSpend > 0."]),
                        ("createdAt", timestamp), ("updatedAt", timestamp),
                        ("version", ["type": "integer", "minimum": 1]),
                        (
                            "adSpend",
                            [
                                "type": "integer", "minimum": 0,
                                "description": "Total ad spend; present only for the store's manager and admins.",
                            ]
                        ),
                    ], optional: ["adSpend"])
            ),
            ("StorePage", page(of: "Store")),
            ("StoreList", object([("items", ["type": "array", "items": ref("Store")])])),
            (
                "Promotion",
                object(
                    [
                        ("id", id), ("storeId", id),
                        ("amount", ["type": "integer", "minimum": 1, "maximum": 1_000_000]),
                        ("createdAt", timestamp),
                        (
                            "adSpend",
                            [
                                "type": "integer", "minimum": 1,
                                "description":
                                    "The store's total right after this purchase; only in the answer to the purchase.",
                            ]
                        ),
                    ], optional: ["adSpend"])
            ),
            ("PromotionPage", page(of: "Promotion")),
            (
                "Comment",
                object([
                    ("id", id), ("kind", ["type": "string", "enum": ["review", "notice"]]), ("storeId", id),
                    (
                        "store",
                        object([
                            ("id", id), ("name", ["type": "string"]), ("category", ref("CategoryRef")),
                            (
                                "imageUrl",
                                ["type": ["string", "null"], "description": "The store's first image, or null."]
                            ),
                        ])
                    ),
                    (
                        "author",
                        object(
                            [("id", id), ("name", ["type": "string"]), ("avatarUrl", nullableString)],
                            description: "The author's current name and avatar.")
                    ),
                    (
                        "rating",
                        [
                            "type": ["integer", "null"], "minimum": 1, "maximum": 5,
                            "description": "1–5 for reviews, null for notices.",
                        ]
                    ),
                    ("body", ["type": "string", "minLength": 1]),
                    ("imageUrls", ["type": "array", "items": imagePath, "maxItems": 9]),
                    ("createdAt", timestamp), ("updatedAt", timestamp), ("version", ["type": "integer", "minimum": 1]),
                ])
            ),
            ("CommentPage", page(of: "Comment")),
            (
                "CategoryScore",
                object([
                    ("id", id), ("name", ["type": "string"]), ("score", ["type": "number", "exclusiveMinimum": 0]),
                ])
            ),
            (
                "FeedPage",
                object([
                    ("items", ["type": "array", "items": ref("Comment")]),
                    ("nextCursor", ["type": ["string", "null"]]),
                    (
                        "personalization",
                        object(
                            [("categories", ["type": "array", "items": ref("CategoryScore")])],
                            description:
                                "The viewer's categories with a score above zero, highest first (as of the first page)."
                        )
                    ),
                ])
            ),
            (
                "Interest",
                object([
                    ("category", ref("CategoryRef")), ("score", ["type": "number", "minimum": 0]), ("clicks", count),
                ])
            ),
            ("InterestList", object([("items", ["type": "array", "items": ref("Interest")])])),
            (
                "SearchMatch",
                object([
                    ("field", ["type": "string", "enum": ["name", "category", "dish"]]),
                    ("text", ["type": "string"]),
                    (
                        "count",
                        [
                            "type": ["integer", "null"],
                            "description": "For `dish`: how many of the store's reviews contain it; else null.",
                        ]
                    ),
                ])
            ),
            (
                "SearchResult",
                object([
                    ("store", ref("Store")),
                    ("matches", ["type": "array", "items": ref("SearchMatch"), "minItems": 1]),
                ])
            ),
            ("SearchPage", page(of: "SearchResult")),
            (
                "Image",
                object([
                    ("id", id), ("url", imagePath),
                    (
                        "contentType",
                        ["type": "string", "enum": ["image/jpeg", "image/png", "image/webp", "image/gif"]]
                    ),
                    ("width", ["type": "integer", "minimum": 1, "maximum": 20_000]),
                    ("height", ["type": "integer", "minimum": 1, "maximum": 20_000]),
                    ("bytes", ["type": "integer", "minimum": 1, "maximum": 8_388_608]),
                ])
            ),
            ("ImageBytes", ["type": "string", "format": "binary"]),
            // Requests
            (
                "RegisterRequest",
                request(
                    [
                        (
                            "name",
                            [
                                "type": "string",
                                "description":
                                    "Trimmed; 1–32 characters, no control characters; unique case-insensitively.",
                            ]
                        ),
                        ("password", ["type": "string", "minLength": 8]),
                        ("role", ["type": "string", "enum": ["user", "manager"], "default": "user"]),
                    ], required: ["name", "password"])
            ),
            (
                "LoginRequest",
                request(
                    [("name", ["type": "string"]), ("password", ["type": "string"])], required: ["name", "password"])
            ),
            ("RenameRequest", request([("name", ["type": "string"])], required: ["name"])),
            (
                "PasswordChangeRequest",
                request(
                    [("currentPassword", ["type": "string"]), ("newPassword", ["type": "string", "minLength": 8])],
                    required: ["currentPassword", "newPassword"])
            ),
            ("AvatarRequest", request([("imageId", id)], required: ["imageId"])),
            (
                "StoreCreateRequest",
                request(
                    [
                        ("name", ["type": "string", "minLength": 1, "maxLength": 64]),
                        ("categoryId", id),
                        ("description", ["type": "string", "maxLength": 2000]),
                        ("address", ["type": "string", "maxLength": 200]),
                        ("imageIds", ["type": "array", "items": id, "maxItems": 9]),
                    ], required: ["name", "categoryId"])
            ),
            (
                "StoreUpdateRequest",
                request(
                    [
                        ("name", ["type": ["string", "null"], "minLength": 1, "maxLength": 64]),
                        ("categoryId", ["type": ["string", "null"]]),
                        ("description", ["type": ["string", "null"], "maxLength": 2000]),
                        ("address", ["type": ["string", "null"], "maxLength": 200]),
                        (
                            "imageIds",
                            [
                                "type": ["array", "null"], "items": id, "maxItems": 9,
                                "description": "Replaces the carousel, in this order.",
                            ]
                        ),
                    ], description: "Absent or null fields stay unchanged.")
            ),
            (
                "PromotionRequest",
                request(
                    [
                        (
                            "amount",
                            [
                                "type": "integer", "minimum": 1, "maximum": 1_000_000,
                                "description": "A JSON integer; `\"5\"` or `5.5` is `invalid_amount`.",
                            ]
                        )
                    ],
                    required: ["amount"])
            ),
            (
                "CommentCreateRequest",
                request(
                    [
                        (
                            "rating",
                            [
                                "type": "integer", "minimum": 1, "maximum": 5,
                                "description": "Required for reviews; ignored for notices.",
                            ]
                        ),
                        ("body", ["type": "string", "minLength": 1, "maxLength": 5000]),
                        ("imageIds", ["type": "array", "items": id, "maxItems": 9, "uniqueItems": true]),
                    ], required: ["body"])
            ),
            (
                "CommentUpdateRequest",
                request(
                    [
                        ("rating", ["type": "integer", "minimum": 1, "maximum": 5]),
                        ("body", ["type": "string", "minLength": 1, "maxLength": 5000]),
                        ("imageIds", ["type": "array", "items": id, "maxItems": 9, "uniqueItems": true]),
                    ], description: "Absent fields stay unchanged.")
            ),
            ("ImageUpload", request([("file", ["type": "string", "format": "binary"])], required: ["file"])),
        ])
    }
}
