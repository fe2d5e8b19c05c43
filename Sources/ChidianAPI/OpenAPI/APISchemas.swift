import ChidianCore
import OpenAPIKit

/// The component schemas: every object the API answers or accepts, as OpenAPIKit schemas. Answer objects list
/// every property as required and allow no others, so schemathesis flags a response that drifts from what is
/// written here.
enum APISchemas {
    /// Every component schema, in the order the document lists them.
    static var all: [(String, JSONSchema)] {
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
                        (
                            "notRecommendedCount",
                            count.with(
                                description:
                                    "Its live reviews judged not recommended: listed by `GET /v1/stores/{id}/comments?recommended=false`, counted in nothing else here."
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
                        ("couponCount", int(min: 0, description: "Its live coupons with stock left.")),
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
                "PopularTimes",
                object([
                    ("timeZone", text("The store's IANA time zone, whose weekdays and hours these are.", min: 1)),
                    (
                        "days",
                        list(
                            object([
                                ("day", int(min: 1, max: 7, description: "1 = Monday … 7 = Sunday.")),
                                (
                                    "hours",
                                    list(
                                        int(min: 0, max: 100), min: 24, max: 24,
                                        description: "Hours 0–23, each a share of the busiest hour of the week (100)."
                                    )
                                ),
                            ]), max: 7,
                            description:
                                "Monday to Sunday; empty while fewer than \(PopularTimes.minimumViews) views are known."
                        )
                    ),
                    (
                        "now",
                        int(
                            min: 0, max: 100, nullable: true,
                            description:
                                "The current local hour of today as a share of the usual peak; null while `days` is empty."
                        )
                    ),
                ])
            ),
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
                        "recommended",
                        boolean(
                            "False when the review is judged not recommended: readable, but counted in none of its store's aggregates and in no feed. Always true on notices."
                        )
                    ),
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
        ] + requests + moderation + insights + people + coupons
    }
}
