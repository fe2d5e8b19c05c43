import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: Reviews and notices

    static let commentProblems = [
        "body_required", "body_too_long", "invalid_rating", "invalid_images", "invalid_scores", "invalid_price",
    ]

    static let comments: [APIOperation] = [
        APIOperation(
            "get", "/v1/stores/{id}/comments", id: "listStoreComments", tag: "Reviews and notices",
            summary: "A store's reviews and notices",
            description: """
                Default: both kinds, newest first. `rating`: highest rating first, then newest. `helpful`: most \
                liked first, then newest. Reviews judged not recommended are left out; `recommended=false` lists \
                them alone, newest first (whatever `sort`).
                """,
            access: .anyone,
            parameters: [
                pathID("store", example: "s001"),
                query(
                    "kind", "Only reviews or only notices.", schema: APISchemas.oneOf(["review", "notice"])),
                query(
                    "sort", "The order.",
                    schema: APISchemas.oneOf(["newest", "rating", "helpful"], default: "newest")),
                query(
                    "recommended",
                    "`false`: the reviews judged not recommended instead (`invalid_recommended` for anything else).",
                    schema: APISchemas.oneOf(["true", "false"], default: "true")),
                header("If-None-Match"),
            ],
            successes: [
                .init(200, "A page of comments.", schema: "CommentPage", headers: ["ETag", "Cache-Control", "Vary"]),
                notModified,
            ],
            problems: [400: ["invalid_kind", "invalid_sort", "invalid_recommended"], 404: ["store_not_found"]],
            paged: true),
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
}
