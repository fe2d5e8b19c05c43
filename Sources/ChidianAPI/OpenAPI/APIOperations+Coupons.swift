import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: Coupons

    static let couponID = pathID("coupon", example: "k_0123456789abcdef")

    static let coupons: [APIOperation] = [
        APIOperation(
            "post", "/v1/stores/{id}/coupons", id: "offerCoupon", tag: "Coupons", summary: "Offer a coupon",
            description: """
                Its manager only (admins too get 403 `not_store_owner`). `faceValue` 1–10,000 and `minSpend` \
                0–100,000 (yuan), `stock` 1–1,000,000, `perUser` 1–10 (default 1), `validDays` 1–365 (default \
                30): each a JSON integer. `startsAt` defaults to now; `endsAt` after it and at most 90 days later. \
                A value out of its range is 400 `invalid_coupon` naming the field; a wrong JSON type \
                `invalid_body`.
                """,
            access: .signedIn, parameters: [pathID("store", example: "s001")], body: .json("CouponRequest"),
            successes: [.init(201, "The coupon.", schema: "Coupon")],
            problems: [400: ["invalid_coupon"], 403: ["not_store_owner"], 404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/stores/{id}/coupons", id: "listStoreCoupons", tag: "Coupons",
            summary: "A store's coupons",
            description: "Upcoming and live first (by start), then those ended in the last 30 days (latest first).",
            access: .anyone, parameters: [pathID("store", example: "s001")],
            successes: [.init(200, "The coupons.", schema: "CouponList")],
            problems: [404: ["store_not_found"]]),
        APIOperation(
            "get", "/v1/coupons/{id}", id: "getCoupon", tag: "Coupons", summary: "A coupon",
            description: "`claimedByMe` counts the signed-in viewer's claims (0 for anyone else).", access: .anyone,
            parameters: [couponID],
            successes: [.init(200, "The coupon.", schema: "Coupon")],
            problems: [404: ["coupon_not_found"]]),
        APIOperation(
            "delete", "/v1/coupons/{id}", id: "endCoupon", tag: "Coupons", summary: "End a coupon now",
            description: "Its store's manager (else 403 `not_store_owner`). Claims made stay usable.",
            access: .signedIn, parameters: [couponID],
            successes: [.init(204, "Ended.")],
            problems: [403: ["not_store_owner"], 404: ["coupon_not_found"]]),
        APIOperation(
            "post", "/v1/coupons/{id}/claims", id: "claimCoupon", tag: "Coupons", summary: "Claim a coupon (领取)",
            description: """
                Claims never exceed `stock` and nobody holds more than `perUser`, whatever runs at once. With \
                `Idempotency-Key`, the same key again by the same user answers 200 with the claim it made, never \
                a second one. `code`: 12 characters of `[0-9A-Z]` without `0`, `O`, `1`, `I`, from a \
                cryptographic source. While other requests come, claims make way for them and wait their turn \
                (up to 10 s, then 503 `busy`).
                """,
            access: .signedIn,
            parameters: [
                couponID,
                header("Idempotency-Key", "8–64 of `[A-Za-z0-9_-]` (else 400 `invalid_idempotency_key`)."),
            ],
            successes: [
                .init(201, "The claim.", schema: "Claim"),
                .init(200, "The claim this key already made.", schema: "Claim"),
            ],
            problems: [
                400: ["invalid_idempotency_key"], 403: ["own_store"], 404: ["coupon_not_found"],
                409: ["sold_out", "claim_limit", "coupon_not_live"], 503: ["busy"],
            ]),
        APIOperation(
            "get", "/v1/me/claims", id: "listMyClaims", tag: "Coupons", summary: "The user's claims, newest first",
            description: "`state`: `usable` (neither redeemed nor expired), `redeemed` or `expired`; absent: all.",
            access: .signedIn,
            parameters: [
                query(
                    "state", "Only claims in this state.", schema: APISchemas.oneOf(["usable", "redeemed", "expired"]))
            ],
            successes: [.init(200, "A page of claims.", schema: "ClaimPage")],
            problems: [400: ["invalid_state"]], paged: true),
        APIOperation(
            "post", "/v1/stores/{id}/redemptions", id: "redeemClaim", tag: "Coupons",
            summary: "Redeem a code at the table",
            description: """
                Its manager only (else 403 `not_store_owner`). The code as shown (case and surrounding spaces \
                ignored). Unknown, or another store's: 404 `code_not_found`; redeemed before: 409 \
                `already_redeemed`; past `expiresAt`: 410 `claim_expired`. Unknown codes count as failed sign-ins \
                do (429 `too_many_attempts`).
                """,
            access: .signedIn, parameters: [pathID("store", example: "s001")], body: .json("RedemptionRequest"),
            successes: [.init(200, "The claim, redeemed.", schema: "Claim")],
            problems: [
                403: ["not_store_owner"], 404: ["store_not_found", "code_not_found"], 409: ["already_redeemed"],
                410: ["claim_expired"], 429: ["too_many_attempts"],
            ]),
    ]
}

extension APISchemas {
    static var coupons: [(String, JSONSchema)] {
        [
            (
                "Coupon",
                object([
                    ("id", id), ("storeId", id), ("title", text("1–40 characters.", min: 1)),
                    ("faceValue", int(min: 1, max: 10_000)), ("minSpend", int(min: 0, max: 100_000)),
                    ("stock", int(min: 1, max: 1_000_000)),
                    ("remaining", int(min: 0, max: 1_000_000, description: "`stock` minus claims.")),
                    ("perUser", int(min: 1, max: 10)), ("startsAt", timestamp), ("endsAt", timestamp),
                    ("validDays", int(min: 1, max: 365)),
                    ("state", oneOf(["upcoming", "live", "sold_out", "ended"])),
                    ("claimedByMe", int(min: 0, max: 10, description: "The viewer's claims (0 for nobody).")),
                ])
            ),
            ("CouponList", object([("items", list(ref("Coupon")))])),
            (
                "Claim",
                object([
                    ("id", id), ("coupon", ref("Coupon")),
                    ("code", text(min: 12, max: 12, pattern: "^[2-9A-HJ-NP-Z]{12}$")),
                    ("claimedAt", timestamp), ("expiresAt", timestamp),
                    ("redeemedAt", .string(format: .dateTime, nullable: true, description: "Null until redeemed.")),
                ])
            ),
            ("ClaimPage", page(of: "Claim")),
            (
                "CouponRequest",
                request(
                    [
                        ("title", text(min: 1, max: 40)), ("faceValue", int(min: 1, max: 10_000)),
                        ("minSpend", int(min: 0, max: 100_000, default: 0)), ("stock", int(min: 1, max: 1_000_000)),
                        ("perUser", int(min: 1, max: 10, default: 1)),
                        ("startsAt", .string(format: .dateTime, description: "Default: now.")),
                        ("endsAt", timestamp), ("validDays", int(min: 1, max: 365, default: 30)),
                    ],
                    required: ["title", "faceValue", "stock", "endsAt"])
            ),
            ("RedemptionRequest", request([("code", text(min: 1, max: 64))], required: ["code"])),
        ]
    }
}
