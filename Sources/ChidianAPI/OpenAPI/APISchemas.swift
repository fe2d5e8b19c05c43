import ChidianCore
import OpenAPIKit

/// The component schemas: every object the API answers or accepts, as OpenAPIKit schemas. Answer objects list
/// every property as required and allow no others, so schemathesis flags a response that drifts from what is
/// written here.
package enum APISchemas {
    package static func ref(_ name: String) -> JSONSchema { .reference(.component(named: name)) }

    package static let id = JSONSchema.string(
        description: "An opaque id (ids from the JSON seed are kept as they are).")
    package static let timestamp = JSONSchema.string(format: .dateTime, description: "RFC 3339, UTC.")
    package static let nullableString = JSONSchema.string(nullable: true)
    package static let imagePath = JSONSchema.string(description: "A path: /v1/images/{id}.", pattern: "^/v1/images/")
    package static let count = int(min: 0)
    /// Raw bytes (`format: binary`, which generators read as a file).
    package static let binary = JSONSchema.string(format: .other("binary"))

    /// A string; `nullable` adds `null` to its types.
    package static func text(
        _ description: String? = nil, min: Int? = nil, max: Int? = nil, pattern: String? = nil, nullable: Bool = false
    ) -> JSONSchema {
        .string(nullable: nullable, description: description, minLength: min, maxLength: max, pattern: pattern)
    }

    /// One of `values`.
    package static func oneOf(_ values: [String], default value: String? = nil, description: String? = nil)
        -> JSONSchema
    {
        .string(
            description: description, allowedValues: values.map { AnyCodable($0) },
            defaultValue: value.map { AnyCodable($0) })
    }

    /// An integer within the bounds given.
    package static func int(
        min: Int? = nil, max: Int? = nil, nullable: Bool = false, default value: Int? = nil, description: String? = nil
    ) -> JSONSchema {
        .integer(
            nullable: nullable, description: description, maximum: max.map { ($0, exclusive: false) },
            minimum: min.map { ($0, exclusive: false) }, defaultValue: value.map { AnyCodable($0) })
    }

    package static func number(
        min: Double? = nil, exclusiveMin: Bool = false, nullable: Bool = false, description: String? = nil
    ) -> JSONSchema {
        .number(nullable: nullable, description: description, minimum: min.map { ($0, exclusive: exclusiveMin) })
    }

    /// A number within inclusive bounds.
    package static func number(between min: Double, and max: Double, nullable: Bool = false, description: String? = nil)
        -> JSONSchema
    {
        .number(
            nullable: nullable, description: description, maximum: (max, exclusive: false),
            minimum: (min, exclusive: false))
    }

    /// "HH:MM" from 00:00 to 23:59.
    package static let clockTime = text(
        "A time \"HH:MM\" from 00:00 to 23:59.", min: 5, max: 5, pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$")

    /// `{lat, lng}` in WGS-84 degrees.
    package static func location(nullable: Bool, description: String) -> JSONSchema {
        object(
            [
                ("lat", number(between: -90, and: 90, description: "Latitude in degrees.")),
                ("lng", number(between: -180, and: 180, description: "Longitude in degrees.")),
            ], nullable: nullable, description: description)
    }

    /// A weekly schedule: `[{day, open, close}]`.
    package static func hours(nullable: Bool, description: String) -> JSONSchema {
        list(
            object([
                ("day", int(min: 1, max: 7, description: "1 = Monday … 7 = Sunday.")), ("open", clockTime),
                ("close", clockTime),
            ]), max: WeeklyHours.maxRanges, nullable: nullable, description: description)
    }

    /// A time of the store's week.
    package static func moment(_ description: String) -> JSONSchema {
        object(
            [("day", int(min: 1, max: 7, description: "1 = Monday … 7 = Sunday.")), ("time", clockTime)],
            nullable: true, description: description)
    }

    package static let hoursRules = """
        Several ranges a day; a range whose `close` is not after its `open` ends the next day (17:00–02:00; \
        equal times are 24 hours; Sunday's runs on into Monday). Ranges starting the same day may not overlap. \
        At most \(WeeklyHours.maxRanges) ranges.
        """

    package static func list(
        _ items: JSONSchema, min: Int? = nil, max: Int? = nil, unique: Bool? = nil, nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .array(
            nullable: nullable, description: description, minItems: min, maxItems: max, uniqueItems: unique,
            items: items)
    }

    package static func boolean(_ description: String? = nil) -> JSONSchema { .boolean(description: description) }

    /// A closed object: every listed property is required unless named in `optional`.
    package static func object(
        _ properties: [(String, JSONSchema)], optional: Set<String> = [], nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .object(
            nullable: nullable, description: description,
            properties: ordered(properties) { optional.contains($0) ? $1.optionalSchemaObject() : $1 },
            additionalProperties: .a(false))
    }

    /// A request object: open to unknown fields (they are ignored), nothing required unless listed.
    package static func request(
        _ properties: [(String, JSONSchema)], required: [String] = [], nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .object(
            nullable: nullable, description: description,
            properties: ordered(properties) { required.contains($0) ? $1 : $1.optionalSchemaObject() })
    }

    private static func ordered(
        _ properties: [(String, JSONSchema)], _ transform: (String, JSONSchema) -> JSONSchema
    ) -> OrderedDictionary<String, JSONSchema> {
        var result = OrderedDictionary<String, JSONSchema>()
        for (name, schema) in properties { result[name] = transform(name, schema) }
        return result
    }

    /// 口味 / 环境 / 服务 as the API answers them.
    package static func scores(nullable: Bool, description: String) -> JSONSchema {
        let score = int(min: 1, max: 5, nullable: true)
        return object(
            [("taste", score), ("environment", score), ("service", score)], nullable: nullable,
            description: description)
    }

    /// Reviews only (a notice sending a value is `invalid_scores`); an object without any score is none.
    package static let scoresRequest = object(
        [
            ("taste", int(min: 1, max: 5, nullable: true)), ("environment", int(min: 1, max: 5, nullable: true)),
            ("service", int(min: 1, max: 5, nullable: true)),
        ], optional: ["taste", "environment", "service"], nullable: true,
        description: "Each an integer 1–5 or null; other keys are `invalid_scores`. Reviews only.")
    package static let priceRequest = int(
        min: 1, max: 100_000, nullable: true, description: "人均: an integer 1–100,000 (`invalid_price`). Reviews only.")

    package static func page(of item: String) -> JSONSchema {
        object(
            [
                ("items", list(ref(item))),
                ("nextCursor", text("Pass as `cursor` for the next page; null on the last page.", nullable: true)),
            ],
            description:
                "A page of \(item)s, in keyset order: pages never repeat or skip an item while the data is unchanged.")
    }

    /// Every component schema, in the order the document lists them.
    package static var all: [(String, JSONSchema)] {
        [
            (
                "Problem",
                object(
                    [
                        ("type", text("https://chidian.dev/problems/<code with dashes>")),
                        ("title", text("The status's reason phrase.")),
                        ("status", int()),
                        ("detail", text("For people; never holds SQL or a stack trace.")),
                        ("code", text("Stable snake_case; what clients branch on.", pattern: "^[a-z]+(_[a-z]+)*$")),
                        (
                            "requestId",
                            text("The same as the `X-Request-Id` response header and the server's log lines.")
                        ),
                    ], description: "An RFC 9457 problem, served as application/problem+json.")
            ),
            ("Health", object([("status", oneOf(["ok"]))])),
            (
                "Ready",
                object([
                    ("status", oneOf(["ready"])),
                    (
                        "pools",
                        list(
                            object(
                                [
                                    ("name", text()), ("role", oneOf(["primary", "replica"])), ("healthy", boolean()),
                                    ("lagSeconds", number(min: 0)),
                                    ("replayLSN", text(pattern: "^[0-9A-F]{1,8}/[0-9A-F]{1,8}$")),
                                    ("problem", text("Why a replica serves no reads.")),
                                ], optional: ["lagSeconds", "replayLSN", "problem"]),
                            description:
                                "The primary, then each replica of DATABASE_READ_URLS as the server last saw it.")
                    ),
                ])
            ),
            ("Metrics", text("Prometheus text format 0.0.4.")),
            (
                "OpenAPIDocument",
                .object(properties: ["openapi": .string, "info": .object, "paths": .object])
            ),
            (
                "User",
                object([
                    ("id", id), ("name", text(min: 1)), ("role", oneOf(["user", "manager", "admin"])),
                    ("avatarUrl", text("An image path, or null.", nullable: true)),
                    ("createdAt", timestamp),
                    ("reviewCount", count.with(description: "Visible reviews written (notices not counted).")),
                    ("followerCount", count), ("followingCount", count),
                    ("following", boolean("Whether the viewer follows this user (false for nobody and oneself).")),
                ])
            ),
            (
                "Session",
                object([("token", text("Send as `Authorization: Bearer <token>`.")), ("user", ref("User"))])
            ),
            ("CategoryRef", object([("id", id), ("name", text())])),
            ("Category", object([("id", id), ("name", text()), ("storeCount", count)])),
            ("CategoryList", object([("items", list(ref("Category")))])),
            (
                "Rating",
                object([
                    ("average", number(nullable: true, description: "The plain average; null without reviews.")),
                    ("count", count),
                    (
                        "score",
                        number(
                            description:
                                "Bayesian average with prior C = 3.5 over m = 5 reviews: (sum + 17.5) / (count + 5). Sorts `sort=rating`."
                        )
                    ),
                ])
            ),
            (
                "Store",
                object(
                    [
                        ("id", id), ("name", text()), ("category", ref("CategoryRef")),
                        ("description", text()), ("address", text()),
                        ("managerId", id), ("managerName", text()),
                        ("imageUrls", list(imagePath, max: 9)),
                        ("rating", ref("Rating")),
                        (
                            "scores",
                            object(
                                [
                                    ("taste", number(nullable: true)), ("environment", number(nullable: true)),
                                    ("service", number(nullable: true)),
                                ],
                                description:
                                    "Averages of the counted reviews' sub-ratings (口味, 环境, 服务), each null while none gave one."
                            )
                        ),
                        (
                            "pricePerPerson",
                            int(
                                min: 1, max: 100_000, nullable: true,
                                description: "人均: the rounded average of the counted reviews' prices; null while none."
                            )
                        ),
                        (
                            "dishes",
                            list(
                                object([("name", text(min: 1)), ("count", int(min: 1))]), max: 5,
                                description:
                                    "推荐菜: up to 5 vocabulary dishes by how many live reviews mention them, most first, then name in code-point order."
                            )
                        ),
                        ("favoriteCount", count),
                        ("favorited", boolean("Whether the signed-in viewer favorited it; false for anyone else.")),
                        ("promoted", boolean("adSpend > 0.")),
                        ("createdAt", timestamp), ("updatedAt", timestamp),
                        ("version", int(min: 1)),
                        ("location", location(nullable: true, description: "Where the store is (WGS-84), or null.")),
                        (
                            "hours",
                            hours(
                                nullable: true, description: "The weekly schedule, or null when unknown. " + hoursRules)
                        ),
                        (
                            "timeZone",
                            text("The IANA zone its hours are read in (default Asia/Shanghai).", min: 1, max: 64)
                        ),
                        (
                            "openNow",
                            JSONSchema.boolean(
                                nullable: true, description: "Open now in the store's zone; null without hours.")
                        ),
                        (
                            "closesAt",
                            moment(
                                "When open: when it next closes (its zone); null otherwise or when open round the clock."
                            )
                        ),
                        ("opensAt", moment("When closed: when it next opens (its zone); null otherwise.")),
                        (
                            "distanceMeters",
                            int(
                                min: 0,
                                description:
                                    "Great-circle metres from the request's `near` (a sphere of 6,371 km); only with `near`."
                            )
                        ),
                        (
                            "adSpend",
                            int(min: 0, description: "Total ad spend; present only for the store's manager and admins.")
                        ),
                    ], optional: ["adSpend", "distanceMeters"])
            ),
            ("StorePage", page(of: "Store")),
            (
                "Pick",
                object([
                    ("store", ref("Store")),
                    (
                        "reasons",
                        list(
                            object([
                                ("kind", oneOf(PickReason.Kind.allCases.map(\.rawValue))),
                                ("text", text("For people, in the viewer's language (Accept-Language).", min: 1)),
                            ]), min: 1, description: "Why this store: never empty.")
                    ),
                    ("alternatives", list(ref("Store"), max: 2, description: "Up to two more, all three distinct.")),
                ])
            ),
            ("StoreList", object([("items", list(ref("Store")))])),
            (
                "Promotion",
                object(
                    [
                        ("id", id), ("storeId", id), ("amount", int(min: 1, max: 1_000_000)), ("createdAt", timestamp),
                        (
                            "adSpend",
                            int(
                                min: 1,
                                description:
                                    "The store's total right after this purchase; only in the answer to the purchase.")
                        ),
                    ], optional: ["adSpend"])
            ),
            ("PromotionPage", page(of: "Promotion")),
            (
                "Comment",
                object([
                    ("id", id), ("kind", oneOf(["review", "notice"])), ("storeId", id),
                    (
                        "store",
                        object([
                            ("id", id), ("name", text()), ("category", ref("CategoryRef")),
                            ("imageUrl", text("The store's first image, or null.", nullable: true)),
                        ])
                    ),
                    (
                        "author",
                        object(
                            [("id", id), ("name", text()), ("avatarUrl", nullableString)],
                            description: "The author's current name and avatar.")
                    ),
                    ("rating", int(min: 1, max: 5, nullable: true, description: "1–5 for reviews, null for notices.")),
                    ("scores", scores(nullable: true, description: "The review's sub-ratings; null for notices.")),
                    (
                        "pricePerPerson",
                        int(min: 1, max: 100_000, nullable: true, description: "人均, if the reviewer gave it.")
                    ),
                    ("body", text(min: 1)),
                    ("imageUrls", list(imagePath, max: 9)),
                    ("likeCount", count),
                    ("liked", boolean("Whether the signed-in viewer liked it; false for anyone else.")),
                    (
                        "reply",
                        object(
                            [
                                ("body", text(min: 1)), ("author", object([("id", id), ("name", text())])),
                                ("createdAt", timestamp), ("updatedAt", timestamp),
                            ], nullable: true, description: "The store's answer (商家回复), or null.")
                    ),
                    ("createdAt", timestamp), ("updatedAt", timestamp), ("version", int(min: 1)),
                ])
            ),
            ("CommentPage", page(of: "Comment")),
            ("CategoryScore", object([("id", id), ("name", text()), ("score", number(min: 0, exclusiveMin: true))])),
            (
                "FeedPage",
                object([
                    ("items", list(ref("Comment"))),
                    ("nextCursor", text(nullable: true)),
                    (
                        "personalization",
                        object(
                            [
                                ("categories", list(ref("CategoryScore"))),
                                (
                                    "explore",
                                    list(
                                        ref("CategoryRef"),
                                        description:
                                            "Categories of this page's reviews shown to explore (the viewer has not opened them)."
                                    )
                                ),
                                (
                                    "coldStart",
                                    .boolean(
                                        description:
                                            "The first page was arranged for a viewer without history (cold start)."
                                    )
                                ),
                            ],
                            description:
                                "The viewer's categories with a score above zero, highest first (as of the first page)."
                        )
                    ),
                ])
            ),
            ("Interest", object([("category", ref("CategoryRef")), ("score", number(min: 0)), ("clicks", count)])),
            ("InterestList", object([("items", list(ref("Interest")))])),
            (
                "SearchMatch",
                object([
                    ("field", oneOf(["name", "category", "dish"])),
                    ("text", text()),
                    (
                        "count",
                        int(
                            nullable: true,
                            description: "For `dish`: how many of the store's reviews contain it; else null.")
                    ),
                ])
            ),
            ("SearchResult", object([("store", ref("Store")), ("matches", list(ref("SearchMatch"), min: 1))])),
            (
                "SearchPage",
                object(
                    [
                        ("items", list(ref("SearchResult"))),
                        (
                            "nextCursor",
                            text("Pass as `cursor` for the next page; null on the last page.", nullable: true)
                        ),
                        (
                            "approximate",
                            boolean(
                                """
                                True when counting the text in reviews needed more rows than a page may read \
                                (`SEARCH_ROW_BUDGET`): the counts shown are exact for their stores and so lower \
                                bounds of the true order, but a store not yet counted could have belonged on this \
                                page, and later pages may end early. False: the page is exact.
                                """)
                        ),
                    ],
                    description: "A page of SearchResults, in keyset order.")
            ),
            (
                "Image",
                object([
                    ("id", id), ("url", imagePath),
                    ("contentType", oneOf(["image/jpeg", "image/png", "image/webp", "image/gif"])),
                    ("width", int(min: 1, max: 20_000)),
                    ("height", int(min: 1, max: 20_000)),
                    ("bytes", int(min: 1, max: 8_388_608)),
                ])
            ),
            ("ImageBytes", binary),
            ("ExportArchive", binary),
            // Requests
            (
                "RegisterRequest",
                request(
                    [
                        ("name", text("Trimmed; 1–32 characters, no control characters; unique case-insensitively.")),
                        ("password", text(min: 8)),
                        ("role", oneOf(["user", "manager"], default: "user")),
                    ], required: ["name", "password"])
            ),
            ("LoginRequest", request([("name", text()), ("password", text())], required: ["name", "password"])),
            ("RenameRequest", request([("name", text())], required: ["name"])),
            (
                "PasswordChangeRequest",
                request(
                    [("currentPassword", text()), ("newPassword", text(min: 8))],
                    required: ["currentPassword", "newPassword"])
            ),
            ("AvatarRequest", request([("imageId", id)], required: ["imageId"])),
            ("AccountDeleteRequest", request([("password", text())], required: ["password"])),
            (
                "StoreCreateRequest",
                request(
                    [
                        ("name", text(min: 1, max: 64)), ("categoryId", id), ("description", text(max: 2000)),
                        ("address", text(max: 200)), ("imageIds", list(id, max: 9)),
                        ("location", location(nullable: true, description: "`invalid_location` unless in range.")),
                        ("hours", hours(nullable: true, description: "`invalid_hours` unless valid. " + hoursRules)),
                        (
                            "timeZone",
                            text("An IANA name (`invalid_time_zone`); null: Asia/Shanghai.", max: 64, nullable: true)
                        ),
                    ], required: ["name", "categoryId"])
            ),
            (
                "StoreUpdateRequest",
                request(
                    [
                        ("name", text(min: 1, max: 64, nullable: true)),
                        ("categoryId", text(nullable: true)),
                        ("description", text(max: 2000, nullable: true)),
                        ("address", text(max: 200, nullable: true)),
                        (
                            "imageIds",
                            list(id, max: 9, nullable: true, description: "Replaces the carousel, in this order.")
                        ),
                        ("location", location(nullable: true, description: "Absent: unchanged; null: cleared.")),
                        (
                            "hours",
                            hours(nullable: true, description: "Absent: unchanged; null: cleared. " + hoursRules)
                        ),
                        (
                            "timeZone",
                            text("Absent: unchanged; null: back to Asia/Shanghai.", max: 64, nullable: true)
                        ),
                    ],
                    description:
                        "Absent or null fields stay unchanged, except `location`, `hours` and `timeZone`, which null clears."
                )
            ),
            (
                "PromotionRequest",
                request(
                    [
                        (
                            "amount",
                            int(
                                min: 1, max: 1_000_000,
                                description: "A JSON integer; `\"5\"` or `5.5` is `invalid_amount`.")
                        )
                    ],
                    required: ["amount"])
            ),
            (
                "CommentCreateRequest",
                request(
                    [
                        ("rating", int(min: 1, max: 5, description: "Required for reviews; ignored for notices.")),
                        ("body", text(min: 1, max: 5000)),
                        ("imageIds", list(id, max: 9, unique: true)),
                        ("scores", scoresRequest), ("pricePerPerson", priceRequest),
                    ], required: ["body"])
            ),
            (
                "CommentUpdateRequest",
                request(
                    [
                        ("rating", int(min: 1, max: 5)), ("body", text(min: 1, max: 5000)),
                        ("imageIds", list(id, max: 9, unique: true)),
                        ("scores", scoresRequest), ("pricePerPerson", priceRequest),
                    ], description: "Absent fields stay unchanged; `scores` and `pricePerPerson` null clear them.")
            ),
            ("ReplyRequest", request([("body", text(min: 1, max: 2000))], required: ["body"])),
            ("ImageUpload", request([("file", binary)], required: ["file"])),
        ] + moderation + insights + people
    }
}
