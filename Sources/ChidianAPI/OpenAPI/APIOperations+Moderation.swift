import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: Reports and moderation

    static let moderation: [APIOperation] = [
        APIOperation(
            "post", "/v1/comments/{id}/reports", id: "reportComment", tag: "Moderation", summary: "Report a comment",
            description: """
                `reason` one of `spam`, `offensive`, `off_topic`, `fake`, `other` (`invalid_reason`); `note` at \\
                most 500 characters (`invalid_note`). One open report per user and comment (409 \\
                `already_reported`); not one's own (403 `own_comment`).
                """,
            access: .signedIn, parameters: [pathID("comment", example: "c001")], body: .json("ReportRequest"),
            successes: [.init(201, "The report.", schema: "Report")],
            problems: [
                400: ["invalid_reason", "invalid_note"], 403: ["own_comment"], 404: ["comment_not_found"],
                409: ["already_reported"],
            ]),
        APIOperation(
            "get", "/v1/moderation/reports", id: "moderationQueue", tag: "Moderation",
            summary: "Reported comments (admins)",
            description: """
                One item per reported comment with open reports (`status=open`, the default) or only closed ones \\
                (`closed`): most reported first, then the newest report. Hidden comments are listed too \\
                (`hidden: true`). Anyone but an admin: 403 `admin_required`.
                """,
            access: .signedIn,
            parameters: [
                query("status", "Which reports.", schema: APISchemas.oneOf(["open", "closed"], default: "open"))
            ],
            successes: [.init(200, "A page of reported comments.", schema: "ModerationPage")],
            problems: [400: ["invalid_status"], 403: ["admin_required"]], paged: true),
        APIOperation(
            "post", "/v1/moderation/comments/{id}", id: "moderateComment", tag: "Moderation",
            summary: "Hide, restore or dismiss (admins)",
            description: """
                `hide` hides the comment from every list and aggregate and closes its reports; `restore` shows a \\
                hidden comment again; `dismiss` closes its reports and leaves it visible. Logged with the admin.
                """,
            access: .signedIn, parameters: [pathID("comment", example: "c001")], body: .json("ModerationRequest"),
            successes: [.init(200, "The comment with all its reports.", schema: "ModerationItem")],
            problems: [
                400: ["invalid_action", "invalid_note"], 403: ["admin_required"], 404: ["comment_not_found"],
            ]),
        APIOperation(
            "get", "/v1/moderation/log", id: "moderationLog", tag: "Moderation", summary: "Moderation log (admins)",
            description: "Every action, newest first. `adminId` is null for actions taken with the CLI.",
            access: .signedIn,
            successes: [.init(200, "A page of actions.", schema: "ModerationLogPage")],
            problems: [403: ["admin_required"]], paged: true),
        APIOperation(
            "put", "/v1/comments/{id}/recommended", id: "setCommentRecommended", tag: "Moderation",
            summary: "Judge a review recommended or not (admins)",
            description: """
                An admin's verdict stands until an admin changes it (the automatic judge never overrides it) and is \
                logged (`recommend` or `not_recommend`, with `note`). A review not recommended stays readable but \
                leaves its store's `rating`, `scores`, `pricePerPerson`, `dishes` and the feeds at once. A notice: \
                400 `not_a_review`.
                """,
            access: .signedIn, parameters: [pathID("comment", example: "c001")], body: .json("RecommendedRequest"),
            successes: [.init(200, "The review.", schema: "Comment")],
            problems: [
                400: ["invalid_recommended", "invalid_note", "not_a_review"], 403: ["admin_required"],
                404: ["comment_not_found"],
            ]),
        APIOperation(
            "get", "/v1/admin/trust", id: "trustQueue", tag: "Moderation", summary: "Suspicious reviews (admins)",
            description: """
                Reviews the judge found suspicious or that are not recommended, with the signals seen in each, most \
                suspicious first (`score`, then id, descending). Anyone but an admin: 403 `admin_required`.
                """,
            access: .signedIn,
            successes: [.init(200, "A page of suspicious reviews.", schema: "TrustPage")],
            problems: [403: ["admin_required"]], paged: true),
    ]
}

extension APISchemas {
    static var moderation: [(String, JSONSchema)] {
        [
            (
                "Report",
                object([
                    ("id", id), ("commentId", id), ("reporterId", id),
                    ("reason", oneOf(["spam", "offensive", "off_topic", "fake", "other"])),
                    ("note", text(max: 500, nullable: true)), ("createdAt", timestamp),
                ])
            ),
            (
                "ModerationItem",
                object([
                    ("comment", ref("Comment")), ("reports", list(ref("Report"))), ("reportCount", count),
                    ("status", oneOf(["open", "closed"])), ("hidden", boolean()),
                ])
            ),
            ("ModerationPage", page(of: "ModerationItem")),
            (
                "ModerationLogEntry",
                object([
                    ("commentId", id),
                    ("action", oneOf(["hide", "restore", "dismiss", "recommend", "not_recommend"])),
                    ("adminId", text(nullable: true)), ("note", text(nullable: true)), ("createdAt", timestamp),
                ])
            ),
            ("ModerationLogPage", page(of: "ModerationLogEntry")),
            (
                "TrustItem",
                object([
                    ("comment", ref("Comment")),
                    (
                        "signals",
                        list(
                            object([("kind", text(min: 1)), ("detail", text())]),
                            description: "What the judge saw in the review."
                        )
                    ),
                    ("score", number(min: 0, description: "How suspicious the review is; the queue's order.")),
                ])
            ),
            ("TrustPage", page(of: "TrustItem")),
            (
                "RecommendedRequest",
                request([("recommended", boolean()), ("note", text(max: 500))], required: ["recommended"])
            ),
            (
                "ReportRequest",
                request(
                    [
                        ("reason", oneOf(["spam", "offensive", "off_topic", "fake", "other"])),
                        ("note", text(max: 500)),
                    ], required: ["reason"])
            ),
            (
                "ModerationRequest",
                request(
                    [("action", oneOf(["hide", "restore", "dismiss"])), ("note", text(max: 500))],
                    required: ["action"])
            ),
        ]
    }
}
