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
        operations + accounts + stores + coupons + comments + moderation + feed + recommendations + images + search
        + pick + insights + people

    // MARK: Parameters

    static func pathID(_ what: String, example: String) -> OpenAPI.Parameter {
        OpenAPI.Parameter(
            name: "id",
            context: .path(
                schemaOrContent: .schema(
                    .init(.string(minLength: 1), style: .default(for: .path), example: AnyCodable(example)))),
            description: "The \(what)'s id.")
    }

    static func query(_ name: String, _ description: String, schema: JSONSchema, required: Bool = false)
        -> OpenAPI.Parameter
    {
        OpenAPI.Parameter(name: name, context: .query(required: required, schema: schema), description: description)
    }

    static func header(_ name: String, _ description: String? = nil) -> OpenAPI.Parameter {
        OpenAPI.Parameter(name: name, context: .header(schema: .string), description: description)
    }

    static let ifMatchHeader = header(
        "If-Match",
        "The `ETag` (`\"<version>\"`) the change is based on; a stale one is refused with 412 `version_conflict`.")

    // MARK: Operations (outside /v1)

    static let operations: [APIOperation] = [
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

    static let accounts: [APIOperation] = [
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

    // MARK: Feed

    static let feed: [APIOperation] = [
        APIOperation(
            "get", "/v1/feed/featured", id: "featuredFeed", tag: "Feed",
            summary: "Reviews of every store, personalised",
            description: """
                For a viewer with interests, reviews of the category with the highest score come first, then the \
                next category, and so on, newest first within a category; then all remaining reviews newest first. \
                Interests come from opened reviews (1 each), store pages (0.5), favorites (3, −3 when removed), likes \
                (1.5) and the viewer's own reviews (5★ +2, 4★ +1, 2★ −1.5, 1★ −3), all decaying with a \
                configurable half-life (`INTEREST_HALF_LIFE_HOURS`). The first page's ten places are mixed by the \
                evidence: the first is the newest review of the highest-scoring category; each other goes to the \
                category with the highest Thompson sample of the viewer's click-through (everyone's as a prior, the \
                viewer's interest for it, the places shown and not opened against it), at most \
                `FEED_EXPLORE_PLACES` of them to another category than the best estimate. Categories placed there \
                that the viewer has not shown a taste for are listed in `personalization.explore`. A viewer without interests (or nobody) gets \
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

    static let recommendations: [APIOperation] = [
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
            problems: [400: ["invalid_limit"], 404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/stores/{id}/popular-times", id: "popularTimes", tag: "Stores",
            summary: "How busy the store usually is, by local weekday and hour",
            description: """
                From the store's views of the last 8 weeks (its manager's own views not counted), each hour as a \
                share of the store's busiest hour. `days` is empty and `now` null while fewer than 200 views are \
                known. Counts may lag by up to 10 s.
                """,
            access: .anyone,
            parameters: [pathID("store", example: "s001")],
            successes: [.init(200, "The week.", schema: "PopularTimes")],
            problems: [404: ["store_not_found"]]),
    ]

    static let search: [APIOperation] = [
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
                bounds. Such searches run one at a time per server: 503 `busy` when too many wait. While one \
                runs, a page that a new or changed review made stale answers as it was, also \
                `approximate: true` (its counts may be a review or two behind), and is read again beside.
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

    static let pick: [APIOperation] = [
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

    static let images: [APIOperation] = [
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
