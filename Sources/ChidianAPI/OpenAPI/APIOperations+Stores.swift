import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: Stores, favorites, promotion

    static let storeSorts = APISchemas.oneOf(
        ["rating", "newest", "name", "popular", "price", "distance"], default: "rating")

    /// `near` and `radius`, shared by the lists that take a position.
    static let nearParameters = [
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
    static let cacheable = """
        `If-None-Match` with the current `ETag` answers 304. Anonymous answers are `Cache-Control: public, \
        max-age=1`; a signed-in viewer's are `private, no-cache`.
        """
    static let notModified = APIOperation.Success(
        304, "Not modified: the `ETag` named is current.", headers: ["ETag"])

    static let stores: [APIOperation] = [
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
}
