import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore

/// Writers that lock a comment must not block what only references it: the followers' fan-out holds a follower's
/// counter and then inserts a notification naming the comment (a foreign key share lock), while a moderator holds
/// the comment and then notifies the same follower as a reporter. With the comment locked FOR UPDATE the two
/// deadlocked (a CI run answered the moderator 500).
@Suite struct NotificationLockTests {
    @Test func aModeratorAndTheFanOutOfTheSameReviewBothFinish() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let fan = try await client.register("粉丝")
            let admin = try await app.admin(client)
            let review = try #require(try await world.review(5, "很好吃")["id"] as? String)
            _ = try await client.send(
                .post, "/v1/comments/\(review)/reports", body: ["reason": "spam"], token: fan.token)
            let logger = TestDatabase.logger
            try await app.database.withConnection { fanOut in
                // The fan-out's first half: the follower's counter, locked to the end of its transaction.
                try await fanOut.rows("BEGIN", logger: logger)
                try await fanOut.rows("SELECT notification_next_seq(\(fan.id))", logger: logger)
                let handled = Task {
                    try await client.send(
                        .post, "/v1/moderation/comments/\(review)", body: ["action": "dismiss"], token: admin.token)
                }
                // The moderator holds the comment and waits for the counter.
                try await TestDatabase.waitForLockWait(in: app.url.database, longerThan: .zero, or: handled)
                // MUT: the second half names the comment; FOR UPDATE on it made this a deadlock
                try await fanOut.rows(
                    """
                    INSERT INTO notifications (user_id, seq, kind, comment_id, store_id)
                    VALUES (\(fan.id), 1000000, 'followed_review', \(review), \(world.storeID))
                    """, logger: logger)
                try await fanOut.rows("COMMIT", logger: logger)
                #expect(try await handled.value.status == .ok)
            }
            let kinds = try await NotificationTests.list(client, fan).compactMap { $0["kind"] as? String }
            #expect(kinds.sorted() == ["followed_review", "report_handled"])
        }
    }
}
