import ChidianCore
import OpenAPIKit

/// Every route the server answers, as the OpenAPI document describes it. A test fails when the router has a
/// route this list lacks (or the reverse), so add an entry here with every new route.
///
/// How to add a route: append an `APIOperation` to its feature's list below — method, path (`{id}` for path
/// parameters, declared with `pathID`), a unique `id`, who may call it (`access`, which also implies the auth
/// problems), the request `body` by component schema name, its `successes`, and the problem codes by status that
/// its handler can answer (paging, bodies and `If-Match` add theirs). New objects go to `APISchemas.all`.
public enum APIOperations {
    public static let all: [APIOperation] =
        operations + accounts + stores + comments + moderation + feed + recommendations + images + search + pick
        + insights + people

    // MARK: Parameters

    package static func pathID(_ what: String, example: String) -> OpenAPI.Parameter {
        OpenAPI.Parameter(
            name: "id",
            context: .path(
                schemaOrContent: .schema(
                    .init(.string(minLength: 1), style: .default(for: .path), example: AnyCodable(example)))),
            description: "The \(what)'s id.")
    }

    package static func query(_ name: String, _ description: String, schema: JSONSchema, required: Bool = false)
        -> OpenAPI.Parameter
    {
        OpenAPI.Parameter(name: name, context: .query(required: required, schema: schema), description: description)
    }

    package static func header(_ name: String, _ description: String? = nil) -> OpenAPI.Parameter {
        OpenAPI.Parameter(name: name, context: .header(schema: .string), description: description)
    }

    package static let ifMatchHeader = header(
        "If-Match",
        "The `ETag` (`\"<version>\"`) the change is based on; a stale one is refused with 412 `version_conflict`.")

    // MARK: Operations (outside /v1)

    package static let operations: [APIOperation] = [
        APIOperation(
            "get", "/health", id: "health", tag: "Operations", summary: "Liveness",
            description: "200 whenever the process runs; never touches the database.", access: .operations,
            successes: [.init(200, "The process runs.", schema: "Health")]),
        APIOperation(
            "get", "/ready", id: "ready", tag: "Operations", summary: "Readiness",
            description: "200 when the database answers within a second and its schema is current; otherwise 503.",
            access: .operations,
            successes: [.init(200, "Ready to serve.", schema: "Ready")],
            problems: [503: ["database_unavailable", "schema_behind"]]),
        APIOperation(
            "get", "/metrics", id: "metrics", tag: "Operations", summary: "Prometheus metrics",
            description: "Prometheus text exposition format 0.0.4: request counts and durations by route and status.",
            access: .operations,
            successes: [.init(200, "The metrics.", schema: "Metrics")]),
        APIOperation(
            "get", "/openapi.json", id: "openapi", tag: "Operations", summary: "This document",
            description: "The OpenAPI 3.1 document of every route, object and problem code.", access: .operations,
            successes: [.init(200, "The OpenAPI document.", schema: "OpenAPIDocument")]),
    ]

    // MARK: Accounts

    package static let accounts: [APIOperation] = [
        APIOperation(
            "post", "/v1/auth/register", id: "register", tag: "Accounts", summary: "Create an account and sign in",
            description: """
                The name is trimmed; blank: `name_required`; over 32 characters (as `String.count`) or with control \
                characters: `invalid_name`; already used, case-insensitively: 409 `name_taken`. Passwords need 8 \
                characters (`weak_password`), no NUL (`invalid_password`) and at most 72 bytes in UTF-8 \
                (`password_too_long`). `role` is `user` (default) or `manager`; admins are made only with \
                `chidian user create`.
                """,
            access: .anyone, body: .json("RegisterRequest"),
            successes: [.init(201, "The new account, signed in.", schema: "Session")],
            problems: [
                400: [
                    "name_required", "invalid_name", "weak_password", "invalid_password", "password_too_long",
                    "invalid_role",
                ],
                409: ["name_taken"], 503: ["busy"],
            ]),
        APIOperation(
            "post", "/v1/auth/login", id: "login", tag: "Accounts", summary: "Sign in",
            description: """
                The name is matched case-insensitively. Every attempt is counted before the password is checked, \
                and a right password gives its attempt back; within 15 minutes, 5 for one name from one client \
                address, 30 from one address, or 100 for one name from anywhere are refused with 429 \
                `too_many_attempts` and `Retry-After` (seconds) until the window passes, so failures from elsewhere \
                do not lock the owner out. Counts are shared by every server process. A password with a NUL or over \
                72 bytes cannot be anyone's: `invalid_password` / `password_too_long`.
                """,
            access: .anyone, body: .json("LoginRequest"),
            successes: [.init(200, "A new session.", schema: "Session")],
            problems: [
                400: ["name_required", "invalid_password", "password_too_long"], 401: ["wrong_password"],
                404: ["user_not_found"], 429: ["too_many_attempts"], 503: ["busy"],
            ]),
        APIOperation(
            "post", "/v1/auth/logout", id: "logout", tag: "Accounts", summary: "Revoke this session's token",
            access: .signedIn, successes: [.init(204, "The token is revoked.")]),
        APIOperation(
            "get", "/v1/me", id: "getMe", tag: "Accounts", summary: "The signed-in user", access: .signedIn,
            successes: [.init(200, "The user.", schema: "User")]),
        APIOperation(
            "patch", "/v1/me", id: "renameMe", tag: "Accounts", summary: "Rename the signed-in user",
            description: "The registration name rules apply. The new name shows at once on every comment.",
            access: .signedIn, body: .json("RenameRequest"),
            successes: [.init(200, "The renamed user.", schema: "User")],
            problems: [400: ["name_required", "invalid_name"], 404: ["user_not_found"], 409: ["name_taken"]]),
        APIOperation(
            "put", "/v1/me/password", id: "changePassword", tag: "Accounts", summary: "Change the password",
            description: """
                Every other session of the user is revoked; this one stays signed in. The new password follows the \
                registration rules. Attempts are throttled like sign-in (per user and address, per address): 429 \
                `too_many_attempts` with `Retry-After`.
                """,
            access: .signedIn, body: .json("PasswordChangeRequest"),
            successes: [.init(204, "Changed.")],
            problems: [
                400: ["weak_password", "invalid_password", "password_too_long"], 401: ["wrong_password"],
                429: ["too_many_attempts"], 503: ["busy"],
            ]),
        APIOperation(
            "put", "/v1/me/avatar", id: "setAvatar", tag: "Accounts", summary: "Set the avatar",
            description: "The image must be one the user uploaded (`POST /v1/images`).",
            access: .signedIn, body: .json("AvatarRequest"),
            successes: [.init(200, "The user with the new avatar.", schema: "User")],
            problems: [400: ["invalid_images"], 404: ["image_not_found", "user_not_found"]]),
        APIOperation(
            "get", "/v1/me/export", id: "exportMyData", tag: "Accounts", summary: "Everything held about me",
            description: """
                A ZIP archive (stored, not compressed): `data.json` with one array per section (profile, sessions \
                without their tokens, reviews and notices with their photo ids, counted ratings, replies received \
                and written, likes, favorites, reports filed, stores managed, promotions bought, moderation \
                actions, interests, opened reviews and stores, store pairs, exploration, rate-limit counters, \
                uploads) and `images/<id>.<ext>`, each photo the user uploaded. Bounded: at most 50,000 rows a \
                section, 64 MiB of JSON, 2,000 photos and 1 GiB of them; what a bound leaves out is named in \
                `truncated`. Passwords and token hashes are never exported.
                """,
            access: .signedIn,
            successes: [
                .init(200, "The archive.", schema: "ExportArchive", headers: ["Content-Disposition", "Cache-Control"])
            ]),
        APIOperation(
            "delete", "/v1/me", id: "deleteMe", tag: "Accounts", summary: "Delete my account",
            description: """
                Needs the password (throttled like a password change: 429 `too_many_attempts`). Deletes the \
                account and every row that names it: sessions (every token is refused at once with \
                `invalid_token`), profile, reviews and notices (with their replies, likes, reports and photos: \
                they are not kept under a placeholder name), likes, favorites, reports, interests and the \
                recommender's history of the user, and their uploads unless another user's live content shows \
                one (a store's photo). Store aggregates stay exact. A manager with a live store is refused with \
                409 `stores_remain` until the stores are archived or handed over; archived stores pass to the \
                longest-standing admin (409 `stores_remain` when there is none). Afterwards \
                `GET /v1/users/{id}` answers 404 `user_not_found`.
                """,
            access: .signedIn, body: .json("AccountDeleteRequest"),
            successes: [.init(204, "Deleted.")],
            problems: [401: ["wrong_password"], 409: ["stores_remain"], 429: ["too_many_attempts"]]),
        APIOperation(
            "get", "/v1/users/{id}", id: "getUser", tag: "Accounts", summary: "A user", access: .anyone,
            parameters: [pathID("user", example: "u001")],
            successes: [.init(200, "The user.", schema: "User")],
            problems: [404: ["user_not_found"]]),
        APIOperation(
            "get", "/v1/users/{id}/comments", id: "listUserComments", tag: "Reviews and notices",
            summary: "A user's reviews and notices, newest first", access: .anyone,
            parameters: [pathID("user", example: "u001")],
            successes: [.init(200, "A page of comments.", schema: "CommentPage")],
            problems: [404: ["user_not_found"]], paged: true),
    ]

    // MARK: Stores, favorites, promotion

    package static let storeSorts = APISchemas.oneOf(
        ["rating", "newest", "name", "popular", "price", "distance"], default: "rating")

    /// `near` and `radius`, shared by the lists that take a position.
    package static let nearParameters = [
        query(
            "near",
            "LAT,LNG in WGS-84 degrees (latitude -90 to 90, longitude -180 to 180); keeps stores with a location "
                + "within `radius` and gives each `distanceMeters`. Malformed or out of range: `invalid_near`.",
            schema: APISchemas.text(max: 64, pattern: "^-?[0-9]{1,2}(\\.[0-9]+)?,-?[0-9]{1,3}(\\.[0-9]+)?$")),
        query(
            "radius", "Metres from `near`, 1–50,000 (default 3,000); else `invalid_radius`.",
            schema: APISchemas.int(min: 1, max: 50_000, default: 3000)),
    ]

    /// What the cached reads say about HTTP caching (docs/CACHING.md).
    package static let cacheable = """
        `If-None-Match` with the current `ETag` answers 304. Anonymous answers are `Cache-Control: public, \
        max-age=1`; a signed-in viewer's are `private, no-cache`.
        """
    package static let notModified = APIOperation.Success(
        304, "Not modified: the `ETag` named is current.", headers: ["ETag"])

    package static let stores: [APIOperation] = [
        APIOperation(
            "get", "/v1/categories", id: "listCategories", tag: "Stores", summary: "Every category, by name",
            description: "`storeCount` counts live (not archived) stores. \(cacheable)", access: .anyone,
            parameters: [header("If-None-Match")],
            successes: [
                .init(200, "The categories.", schema: "CategoryList", headers: ["ETag", "Cache-Control", "Vary"]),
                notModified,
            ]),
        APIOperation(
            "get", "/v1/stores", id: "listStores", tag: "Stores", summary: "Stores",
            description: """
                `rating` sorts by `rating.score` (a Bayesian average: every store starts with 5 virtual reviews of \
                3.5 stars, so score = (sum + 17.5) / (count + 5)); `popular` by `favoriteCount`; `newest` by \
                `createdAt`; each descending, then by id descending. `name` is code-point order, then id ascending. \
                `price` is `pricePerPerson` ascending, stores without one last, then id descending. An empty \
                `category` means no filter; `maxPrice` keeps stores whose `pricePerPerson` is at most that. \
                `near` (with `radius`) keeps stores within the radius and adds `distanceMeters`; `distance` sorts \
                nearest first, then id descending, and needs `near` (else `near_required`). `open=now` keeps stores \
                whose `openNow` is true. All of them combine.
                """,
            access: .anyone,
            parameters: [
                query("category", "Only stores of this category id.", schema: .string),
                query("sort", "The order.", schema: storeSorts),
                query("maxPrice", "Only stores whose 人均 is at most this (1–100,000).", schema: .integer),
                query("open", "`now`: only stores open now in their own zone.", schema: APISchemas.oneOf(["now"])),
            ] + nearParameters,
            successes: [.init(200, "A page of stores.", schema: "StorePage")],
            problems: [
                400: [
                    "invalid_sort", "unknown_category", "invalid_price", "invalid_near", "invalid_radius",
                    "near_required", "invalid_open",
                ]
            ], paged: true),
        APIOperation(
            "post", "/v1/stores", id: "createStore", tag: "Stores", summary: "Open a store (managers)",
            description: """
                Managers only; anyone else, admins included: 403 `manager_required`. Name 1–64 characters without \
                control characters; description up to 2,000 (line breaks allowed), address up to 200; at most 9 \
                images, each uploaded by the manager, shown in the order given.
                """,
            access: .signedIn, body: .json("StoreCreateRequest"),
            successes: [.init(201, "The new store.", schema: "Store", headers: ["ETag"])],
            problems: [
                400: [
                    "name_required", "invalid_name", "invalid_description", "invalid_address", "invalid_images",
                    "unknown_category", "invalid_location", "invalid_hours", "invalid_time_zone",
                ],
                403: ["manager_required"],
            ]),
        APIOperation(
            "get", "/v1/stores/{id}", id: "getStore", tag: "Stores", summary: "A store",
            description: """
                Archived stores answer 404. `adSpend` is present for the store's manager and admins only. A user's or \
                visitor's open counts for the recommender (half an open of its category, and "also viewed"). Every \
                read but its manager's counts a view in the store's insights, and with `from` a click from that \
                list's card (an unknown `from` counts the view alone).
                """,
            access: .anyone,
            parameters: [
                pathID("store", example: "s001"), header("If-None-Match"),
                query(
                    "track", "`false` to not count the open for the recommender.",
                    schema: APISchemas.oneOf(["true", "false"])),
                query(
                    "from", "The list whose card was clicked, for the store's insights.",
                    schema: APISchemas.oneOf(["daily", "feed", "search", "near", "pick"])),
            ],
            successes: [
                .init(200, "The store.", schema: "Store", headers: ["ETag", "Cache-Control", "Vary"]), notModified,
            ],
            problems: [404: ["store_not_found"]]),
        APIOperation(
            "patch", "/v1/stores/{id}", id: "updateStore", tag: "Stores", summary: "Change a store",
            description: "Its manager or an admin (else 403 `not_store_owner`). Absent or null fields stay unchanged.",
            access: .signedIn, parameters: [pathID("store", example: "s001"), ifMatchHeader],
            body: .json("StoreUpdateRequest"),
            successes: [.init(200, "The changed store.", schema: "Store", headers: ["ETag"])],
            problems: [
                400: [
                    "name_required", "invalid_name", "invalid_description", "invalid_address", "invalid_images",
                    "unknown_category", "invalid_location", "invalid_hours", "invalid_time_zone",
                ],
                403: ["not_store_owner"], 404: ["store_not_found"],
            ],
            ifMatch: true),
        APIOperation(
            "delete", "/v1/stores/{id}", id: "archiveStore", tag: "Stores", summary: "Archive a store",
            description: """
                Its manager or an admin. The store leaves every list and answers 404; its data is kept and \
                `chidian store restore ID` brings it back.
                """,
            access: .signedIn, parameters: [pathID("store", example: "s001"), ifMatchHeader],
            successes: [.init(204, "Archived.")],
            problems: [403: ["not_store_owner"], 404: ["store_not_found"]], ifMatch: true),
        APIOperation(
            "get", "/v1/me/stores", id: "listMyStores", tag: "Stores",
            summary: "The manager's own stores, with adSpend",
            description: "Managers only (else 403 `manager_required`); newest first.", access: .signedIn,
            successes: [.init(200, "A page of stores.", schema: "StorePage")],
            problems: [403: ["manager_required"]], paged: true),
        APIOperation(
            "put", "/v1/stores/{id}/favorite", id: "favoriteStore", tag: "Favorites", summary: "Favorite a store",
            description: "Idempotent.", access: .signedIn, parameters: [pathID("store", example: "s001")],
            successes: [.init(204, "The store is a favorite.")],
            problems: [404: ["store_not_found"]]),
        APIOperation(
            "delete", "/v1/stores/{id}/favorite", id: "unfavoriteStore", tag: "Favorites",
            summary: "Unfavorite a store",
            description: "Idempotent.", access: .signedIn, parameters: [pathID("store", example: "s001")],
            successes: [.init(204, "The store is not a favorite.")],
            problems: [404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/me/favorites", id: "listMyFavorites", tag: "Favorites",
            summary: "The user's favorite stores, most recently favorited first", access: .signedIn,
            successes: [.init(200, "A page of stores.", schema: "StorePage")], paged: true),
        APIOperation(
            "post", "/v1/stores/{id}/promotions", id: "buyPromotion", tag: "Promotion", summary: "Buy ad spend",
            description: """
                Its manager only (admins too get 403 `not_store_owner`). `amount` must be a JSON integer from 1 to \
                1,000,000; a string, a fraction or anything else is `invalid_amount`. The answer carries the store's \
                new total `adSpend`.
                """,
            access: .signedIn, parameters: [pathID("store", example: "s001")], body: .json("PromotionRequest"),
            successes: [.init(201, "The purchase.", schema: "Promotion")],
            problems: [400: ["invalid_amount"], 403: ["not_store_owner"], 404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/stores/{id}/promotions", id: "listPromotions", tag: "Promotion",
            summary: "A store's purchases, newest first",
            description: "Its manager or an admin (else 403 `not_store_owner`).", access: .signedIn,
            parameters: [pathID("store", example: "s001")],
            successes: [.init(200, "A page of purchases.", schema: "PromotionPage")],
            problems: [403: ["not_store_owner"], 404: ["store_not_found"]], paged: true),
        APIOperation(
            "get", "/v1/promotions/daily", id: "dailyPromotions", tag: "Promotion", summary: "Today's promoted stores",
            description: """
                Stores with `adSpend > 0`, highest first, ties by earlier `createdAt` then id; each has \
                `promoted: true`. Not paged. \(cacheable)
                """,
            access: .anyone,
            parameters: [
                query(
                    "limit", "How many, 1–100.",
                    schema: APISchemas.int(min: 1, max: 100, default: 10)),
                header("If-None-Match"),
            ],
            successes: [
                .init(200, "The stores.", schema: "StoreList", headers: ["ETag", "Cache-Control", "Vary"]), notModified,
            ],
            problems: [400: ["invalid_limit"]]),
    ]

    // MARK: Reviews and notices

    package static let commentProblems = [
        "body_required", "body_too_long", "invalid_rating", "invalid_images", "invalid_scores", "invalid_price",
    ]

    package static let comments: [APIOperation] = [
        APIOperation(
            "get", "/v1/stores/{id}/comments", id: "listStoreComments", tag: "Reviews and notices",
            summary: "A store's reviews and notices",
            description: """
                Default: both kinds, newest first. `rating`: highest rating first, then newest. `helpful`: most \
                liked first, then newest.
                """,
            access: .anyone,
            parameters: [
                pathID("store", example: "s001"),
                query(
                    "kind", "Only reviews or only notices.", schema: APISchemas.oneOf(["review", "notice"])),
                query(
                    "sort", "The order.",
                    schema: APISchemas.oneOf(["newest", "rating", "helpful"], default: "newest")),
                header("If-None-Match"),
            ],
            successes: [
                .init(200, "A page of comments.", schema: "CommentPage", headers: ["ETag", "Cache-Control", "Vary"]),
                notModified,
            ],
            problems: [400: ["invalid_kind", "invalid_sort"], 404: ["store_not_found"]], paged: true),
        APIOperation(
            "post", "/v1/stores/{id}/comments", id: "createComment", tag: "Reviews and notices",
            summary: "Write a review (users) or a notice (a store's manager)",
            description: """
                A user writes a review with a rating 1–5 (`invalid_rating`). A manager writes a notice, only on a \
                store of their own (403 `not_store_owner`); a rating sent with it is ignored. Admins: 403 \
                `forbidden`. The body is trimmed: blank `body_required`, over 5,000 characters `body_too_long`. At \
                most 9 images, each uploaded by the author (`invalid_images`).
                """,
            access: .signedIn, parameters: [pathID("store", example: "s001")], body: .json("CommentCreateRequest"),
            successes: [.init(201, "The comment.", schema: "Comment", headers: ["ETag", "Location"])],
            problems: [400: commentProblems, 403: ["forbidden", "not_store_owner"], 404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/comments/{id}", id: "getComment", tag: "Reviews and notices", summary: "A review or notice",
            description: """
                Opening a review counts as a click for the viewer's feed (a user or an `X-Visitor-Id` visitor) unless \
                `track=false`; the same viewer's opens of one review count once per 10 seconds.
                """,
            access: .viewer,
            parameters: [
                pathID("comment", example: "c001"),
                query(
                    "track", "`false` to not count the open as a click.",
                    schema: APISchemas.oneOf(["true", "false"])),
            ],
            successes: [.init(200, "The comment.", schema: "Comment", headers: ["ETag"])],
            problems: [404: ["comment_not_found"]]),
        APIOperation(
            "patch", "/v1/comments/{id}", id: "editComment", tag: "Reviews and notices", summary: "Edit a comment",
            description:
                "Its author only (admins included in the refusal: 403 `not_author`). Absent fields stay unchanged; a notice ignores `rating`.",
            access: .signedIn, parameters: [pathID("comment", example: "c001"), ifMatchHeader],
            body: .json("CommentUpdateRequest"),
            successes: [.init(200, "The edited comment.", schema: "Comment", headers: ["ETag"])],
            problems: [400: commentProblems, 403: ["not_author"], 404: ["comment_not_found"]], ifMatch: true),
        APIOperation(
            "delete", "/v1/comments/{id}", id: "deleteComment", tag: "Reviews and notices", summary: "Delete a comment",
            description: "Its author or an admin (else 403 `not_author`).", access: .signedIn,
            parameters: [pathID("comment", example: "c001"), ifMatchHeader],
            successes: [.init(204, "Deleted.")],
            problems: [403: ["not_author"], 404: ["comment_not_found"]], ifMatch: true),
        APIOperation(
            "get", "/v1/me/comments", id: "listMyComments", tag: "Reviews and notices",
            summary: "The signed-in user's comments, newest first", access: .signedIn,
            successes: [.init(200, "A page of comments.", schema: "CommentPage")], paged: true),
        APIOperation(
            "put", "/v1/comments/{id}/like", id: "likeComment", tag: "Reviews and notices", summary: "Like a review",
            description: "Idempotent. Reviews only (`not_a_review`); not one's own (403 `own_comment`).",
            access: .signedIn, parameters: [pathID("comment", example: "c001")],
            successes: [.init(204, "Liked.")],
            problems: [400: ["not_a_review"], 403: ["own_comment"], 404: ["comment_not_found"]]),
        APIOperation(
            "delete", "/v1/comments/{id}/like", id: "unlikeComment", tag: "Reviews and notices",
            summary: "Take a like back", description: "Idempotent; the same refusals as liking.",
            access: .signedIn, parameters: [pathID("comment", example: "c001")],
            successes: [.init(204, "Not liked.")],
            problems: [400: ["not_a_review"], 403: ["own_comment"], 404: ["comment_not_found"]]),
        APIOperation(
            "put", "/v1/comments/{id}/reply", id: "replyToReview", tag: "Reviews and notices",
            summary: "Answer a review (the store's manager)",
            description: """
                Sets the store's reply (商家回复) shown under the review; a second PUT replaces its body. The manager \
                of the review's store only (403 `not_store_owner`); reviews only (`not_a_review`). The body is \
                trimmed: blank `body_required`, over 2,000 characters `body_too_long`.
                """,
            access: .signedIn, parameters: [pathID("comment", example: "c001")], body: .json("ReplyRequest"),
            successes: [.init(200, "The review with its reply.", schema: "Comment")],
            problems: [
                400: ["body_required", "body_too_long", "not_a_review"], 403: ["not_store_owner"],
                404: ["comment_not_found"],
            ]),
        APIOperation(
            "delete", "/v1/comments/{id}/reply", id: "deleteReply", tag: "Reviews and notices",
            summary: "Remove a review's reply", description: "The store's manager or an admin (403 `not_store_owner`).",
            access: .signedIn, parameters: [pathID("comment", example: "c001")],
            successes: [.init(204, "Removed.")],
            problems: [403: ["not_store_owner"], 404: ["comment_not_found", "reply_not_found"]]),
    ]

    // MARK: Feed

    package static let feed: [APIOperation] = [
        APIOperation(
            "get", "/v1/feed/featured", id: "featuredFeed", tag: "Feed",
            summary: "Reviews of every store, personalised",
            description: """
                For a viewer with interests, reviews of the category with the highest score come first, then the \
                next category, and so on, newest first within a category; then all remaining reviews newest first. \
                Interests come from opened reviews (1 each), store pages (0.5), favorites (3, −3 when removed), likes \
                (1.5) and the viewer's own reviews (5★ +2, 4★ +1, 2★ −1.5, 1★ −3), all decaying with a \
                configurable half-life (`INTEREST_HALF_LIFE_HOURS`). Places 5 and 9 of the first page go to \
                reviews of categories the viewer has not shown, chosen by Thompson sampling over click-through when \
                explored; they are listed in `personalization.explore`. A viewer without interests (or nobody) gets \
                cold start: recent, liked, well-rated reviews, at most 3 of a category among the first 10 when the \
                data allows, nearest first-ish when `near` is given (`personalization.coldStart: true`). The \
                ordering (20 categories at most) and the first page's placed reviews are frozen into the cursor: no \
                review repeats or is skipped across pages. Not cached (`Cache-Control: private, no-store`).
                """,
            access: .viewer, parameters: nearParameters,
            successes: [.init(200, "A page of reviews with the viewer's category scores.", schema: "FeedPage")],
            problems: [400: ["invalid_near", "invalid_radius"]], paged: true),
        APIOperation(
            "get", "/v1/feed/stores", id: "storesForYou", tag: "Feed", summary: "猜你喜欢: stores for the viewer",
            description: """
                Stores that viewers of the viewer's recent and favorite stores also opened, the best-rated stores \
                of the viewer's top categories and the best-rated overall (with `near`, the nearest within the \
                radius, each with `distanceMeters`), ranked by the viewer's interests, shared viewers, rating, \
                favorites and distance; the viewer's favorites and stores they reviewed in the last 30 days are left \
                out; at most 3 of a category among the first 10 when the data allows. Nobody gets popular, well-rated \
                stores. Not cached.
                """,
            access: .viewer,
            parameters: nearParameters + [
                query("limit", "How many, 1–50.", schema: APISchemas.int(min: 1, max: 50, default: 10))
            ],
            successes: [.init(200, "The stores.", schema: "StoreList")],
            problems: [400: ["invalid_near", "invalid_radius", "invalid_limit"]]),
        APIOperation(
            "get", "/v1/me/interests", id: "listInterests", tag: "Feed", summary: "The viewer's click interests",
            description: "For a user or an `X-Visitor-Id` visitor; nobody: 401 `login_required`.", access: .viewer,
            successes: [.init(200, "The interests, highest score first.", schema: "InterestList")],
            problems: [401: ["login_required"]]),
        APIOperation(
            "delete", "/v1/me/interests", id: "resetInterests", tag: "Feed", summary: "Forget the viewer's clicks",
            access: .viewer, successes: [.init(204, "Forgotten.")], problems: [401: ["login_required"]]),
    ]

    // MARK: Search

    package static let recommendations: [APIOperation] = [
        APIOperation(
            "get", "/v1/stores/{id}/also-viewed", id: "alsoViewed", tag: "Stores",
            summary: "看过这家的人还看了: stores viewers of this one also opened",
            description: """
                Live stores opened by viewers (users and visitors) who opened this store within a day of it, most \
                shared viewers first, then id descending; never the store itself, never an archived store. Kept \
                per open (a viewer's pair counts once), never recomputed on a request.
                """,
            access: .anyone,
            parameters: [
                pathID("store", example: "s001"),
                query("limit", "How many, 1–50.", schema: APISchemas.int(min: 1, max: 50, default: 10)),
            ],
            successes: [.init(200, "The stores.", schema: "StoreList")],
            problems: [400: ["invalid_limit"], 404: ["store_not_found"]])
    ]

    package static let search: [APIOperation] = [
        APIOperation(
            "get", "/v1/search", id: "search", tag: "Search", summary: "Search stores",
            description: """
                A store matches when its name or category name contains `q`, or one of its reviews does \
                (case-insensitive; `%`, `_` and `\\` literal). Full pinyin and pinyin initials match store names, \
                category names and dish names. Order: name matches, then category matches, then stores matched \
                only through reviews by `count` descending; within each group by `rating.score` descending, then id \
                descending (the tie-break of `GET /v1/stores?sort=rating`). A text of 3 or more characters that \
                is not a vocabulary dish is counted in reviews within a budget of rows read \
                (`SEARCH_ROW_BUDGET`); past it the page says `approximate: true` and its counts are lower \
                bounds. Such searches run one at a time per server: 503 `busy` when too many wait.
                """,
            access: .anyone,
            parameters: [
                query(
                    "q", "The text to find, 1–64 characters after trimming; read as a form value, so `+` is a space.",
                    schema: .string, required: true),
                header("If-None-Match"),
            ] + nearParameters,
            successes: [
                .init(
                    200, "A page of matching stores.", schema: "SearchPage", headers: ["ETag", "Cache-Control", "Vary"]),
                notModified,
            ],
            problems: [400: ["query_required", "query_too_long", "invalid_near", "invalid_radius"], 503: ["busy"]],
            paged: true)
    ]

    // MARK: 今天吃点啥

    package static let pick: [APIOperation] = [
        APIOperation(
            "get", "/v1/pick", id: "pick", tag: "Stores", summary: "今天吃点啥: one store for here and now",
            description: """
                One store and up to two alternatives, all distinct. Every store is live, open now in its own zone, \
                within `radius` of `near` when given, at most `maxPrice` per person when given (stores without a \
                price are then left out), in `category` when given, not in `skip`, and not reviewed by the \
                signed-in viewer in the last 30 days. Ranked by the viewer's interests (the categories they open, \
                their favorites), the store's rating, favorites and distance, with a random element: where two or \
                more stores qualify, repeated calls do not always answer the same store (30 % of calls explore: the \
                first is then the best store of a category the viewer has not shown, chosen by the feed's bandit). \
                Stores that viewers of the viewer's recent stores also opened rank higher; the last alternative is \
                from a category the viewer has not shown when one qualifies. \
                `reasons` (never empty) say why in the viewer's language (Chinese unless `Accept-Language` prefers \
                English). Nothing qualifies: 404 `nothing_to_pick`. Not cached (`Cache-Control: private, no-store`).
                """,
            access: .anyone,
            parameters: nearParameters + [
                query(
                    "maxPrice", "Only stores whose 人均 is at most this (1–100,000).",
                    schema: APISchemas.int(min: 1, max: 100_000)),
                query("category", "Only stores of this category id.", schema: .string),
                query(
                    "skip", "Store ids not to answer (换一个), comma-separated, at most 50.",
                    schema: APISchemas.text(max: 3300)),
            ],
            successes: [.init(200, "The pick.", schema: "Pick")],
            problems: [
                400: ["invalid_near", "invalid_radius", "invalid_price", "unknown_category", "invalid_skip"],
                404: ["nothing_to_pick"],
            ])
    ]

    // MARK: Images

    package static let images: [APIOperation] = [
        APIOperation(
            "post", "/v1/images", id: "uploadImage", tag: "Images", summary: "Upload an image",
            description: """
                The raw bytes with an image `Content-Type`, or `multipart/form-data` with field `file`. The bytes \
                decide the type (415 `unsupported_media_type` unless JPEG, PNG, WebP or GIF); only the header is read \
                (never the pixels): empty, truncated, a side over 20,000 pixels or over 40 megapixels in all: 400 `invalid_image`. Over 8 MiB: \
                413 `image_too_large`. Identical bytes are stored once. Besides the upload rate, one user may make \
                200 valid uploads a day (`UPLOADS_PER_DAY`): beyond, 429 `rate_limited` with `Retry-After`.
                """,
            access: .signedIn, body: .image,
            successes: [.init(201, "The image.", schema: "Image", headers: ["Location"])],
            problems: [
                400: ["invalid_image", "invalid_body"], 413: ["image_too_large"], 415: ["unsupported_media_type"],
            ]),
        APIOperation(
            "get", "/v1/images/{id}", id: "getImage", tag: "Images", summary: "An image's bytes",
            description: """
                Served with their type, `ETag` (the content hash), `Cache-Control: public, max-age=31536000, \
                immutable` and a `Content-Security-Policy` that forbids scripts. `If-None-Match` answers 304.
                """,
            access: .anyone,
            parameters: [
                pathID("image", example: "s001_1"),
                header("If-None-Match"),
            ],
            successes: [
                .init(
                    200, "The bytes.", schema: "ImageBytes",
                    headers: ["ETag", "Cache-Control", "Content-Security-Policy"]),
                .init(304, "Not modified.", headers: ["ETag"]),
            ],
            problems: [404: ["image_not_found"]]),
    ]
}
