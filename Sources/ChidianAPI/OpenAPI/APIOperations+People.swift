import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: People: follows and notifications

    static let people: [APIOperation] = [
        APIOperation(
            "put", "/v1/users/{id}/follow", id: "followUser", tag: "People", summary: "Follow a user",
            description: """
                Idempotent. Not oneself (`cannot_follow_self`). At most `FOLLOWS_PER_DAY` (10,000) new follows a \\
                day per user (429 `rate_limited`); following someone already followed costs nothing.
                """,
            access: .signedIn, parameters: [pathID("user", example: "u001")],
            successes: [.init(204, "Followed.")],
            problems: [400: ["cannot_follow_self"], 404: ["user_not_found"], 429: ["rate_limited"]]),
        APIOperation(
            "delete", "/v1/users/{id}/follow", id: "unfollowUser", tag: "People", summary: "Stop following a user",
            description: "Idempotent.", access: .signedIn, parameters: [pathID("user", example: "u001")],
            successes: [.init(204, "Not followed.")],
            problems: [400: ["cannot_follow_self"], 404: ["user_not_found"]]),
        APIOperation(
            "get", "/v1/users/{id}/followers", id: "listFollowers", tag: "People",
            summary: "A user's followers, newest follow first", access: .anyone,
            parameters: [pathID("user", example: "u001")],
            successes: [.init(200, "A page of users.", schema: "UserPage")],
            problems: [404: ["user_not_found"]], paged: true),
        APIOperation(
            "get", "/v1/users/{id}/following", id: "listFollowing", tag: "People",
            summary: "The people a user follows, newest follow first", access: .anyone,
            parameters: [pathID("user", example: "u001")],
            successes: [.init(200, "A page of users.", schema: "UserPage")],
            problems: [404: ["user_not_found"]], paged: true),
        APIOperation(
            "get", "/v1/feed/following", id: "followingFeed", tag: "People",
            summary: "Reviews by the people the viewer follows, newest first",
            description: "Built when read from each followed author's newest reviews; hidden ones are in no page.",
            access: .signedIn,
            successes: [.init(200, "A page of reviews.", schema: "CommentPage")], paged: true),
        APIOperation(
            "get", "/v1/me/notifications", id: "listNotifications", tag: "People",
            summary: "The signed-in user's notifications, newest first",
            description: """
                Kinds: `reply`, `like` (grouped per review while unread), `report_handled`, `follow`, \\
                `followed_review`, `store_review`, `coupon_expiring` (an unused claim expires within 24 h). Never for one's own act, never about a hidden comment.
                """,
            access: .signedIn,
            parameters: [
                query(
                    "unread", "`true`: only unread ones (`invalid_unread` for anything but true or false).",
                    schema: APISchemas.oneOf(["true", "false"], default: "false"))
            ],
            successes: [.init(200, "A page of notifications.", schema: "NotificationPage")],
            problems: [400: ["invalid_unread"]], paged: true),
        APIOperation(
            "get", "/v1/me/notifications/unread-count", id: "unreadNotificationCount", tag: "People",
            summary: "How many notifications are unread", access: .signedIn,
            successes: [.init(200, "The count.", schema: "UnreadCount")]),
        APIOperation(
            "post", "/v1/me/notifications/read", id: "markNotificationsRead", tag: "People",
            summary: "Mark notifications read",
            description: """
                Those among `ids` (at most 1,000; `invalid_ids`), or made at or before `before` (RFC 3339; \\
                `invalid_before`); neither, or no body: all of them.
                """,
            access: .signedIn, body: .json("NotificationsReadRequest"),
            successes: [.init(204, "Marked read.")],
            problems: [400: ["invalid_ids", "invalid_before"]]),
        APIOperation(
            "get", "/v1/me/notifications/stream", id: "notificationStream", tag: "People",
            summary: "The signed-in user's notifications as they happen (Server-Sent Events)",
            description: """
                `text/event-stream`: status and headers at once, then per notification an event with `id:` (send \\
                it back as `Last-Event-ID` to resume after it, none lost or repeated) and `data:` the Notification \\
                as one line of JSON; `: ping` comments while idle. The bearer token or the web session's cookie. \\
                At most `STREAMS_PER_USER` (5) open per user on one server (429 `too_many_streams`) and \\
                `STREAMS_MAX` in all (503 `server_busy`).
                """,
            access: .signedIn,
            parameters: [header("Last-Event-ID", "The id of the last event received: resume after it.")],
            successes: [.init(200, "The stream.", schema: "NotificationStream")],
            problems: [400: ["invalid_last_event_id"], 429: ["too_many_streams"], 503: ["server_busy"]]),
    ]
}

extension APISchemas {
    static var people: [(String, JSONSchema)] {
        [
            ("UserPage", page(of: "User")),
            (
                "Notification",
                object(
                    [
                        ("id", id),
                        (
                            "kind",
                            oneOf([
                                "reply", "like", "report_handled", "follow", "followed_review", "store_review",
                                "coupon_expiring",
                            ])
                        ),
                        ("createdAt", timestamp.with(description: "When it was made, or (a like group) last liked.")),
                        ("readAt", text(nullable: true)),
                        (
                            "actors",
                            list(
                                object([("id", id), ("name", text())]), max: NotificationRow.shownActors,
                                description: "Who did it, the latest first (a like group names its latest three).")
                        ),
                        ("actorCount", count.with(description: "Everyone who did it (a like group's likers).")),
                        (
                            "comment",
                            ref("Comment").with(
                                description: "The comment it is about; null (to generated clients: absent) when none.")
                        ),
                        ("store", object([("id", id), ("name", text())], nullable: true)),
                    ], optional: ["comment"])
            ),
            ("NotificationPage", page(of: "Notification")),
            ("UnreadCount", object([("count", count)])),
            (
                "NotificationsReadRequest",
                request([("ids", list(id, max: 1000)), ("before", timestamp)])
            ),
            (
                "NotificationStream",
                text("Server-Sent Events: `id: <n>` and `data: <Notification as JSON>` per notification.")
            ),
        ]
    }
}
