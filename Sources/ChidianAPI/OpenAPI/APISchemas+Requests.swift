import ChidianCore
import OpenAPIKit

extension APISchemas {
    /// The request bodies' schemas, in the order the document lists them (after the responses').
    static var requests: [(String, JSONSchema)] {
        [
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
        ]
    }
}
