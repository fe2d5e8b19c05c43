import Foundation
import HummingbirdTesting
import PostgresNIO

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A user with a row in every table that can name them, among others whose rows must survive their deletion.
/// Rows the API's role rules would not let one person make (a manager's reviews, an admin's log entry) are
/// written in SQL: the export and the deletion read tables, not roles.
struct MyDataWorld {
    let me: Session
    let other: Session
    let manager: Session
    let admin: Session
    let storeID: String
    let myStoreID: String
    let myReviewID: String
    let otherReviewID: String
    let myImages: [String]
    let storePhotoID: String

    /// `name` is the user's, found in no other row (the deletion test looks for it everywhere).
    static func make(_ client: any TestClientProtocol, _ app: TestApp, name: String = "导出者") async throws
        -> MyDataWorld
    {
        let database = app.database
        let me = try await client.register(name, role: "manager")
        let other = try await client.register("朋友")
        let manager = try await client.register("老板", role: "manager")
        let admin = try await app.admin(client, name: "管理员")
        let categoryID = try await CommentFixture.category(app, "火锅")
        let storeID = try await CommentFixture.store(app, name: "小龙坎", categoryID: categoryID, managerID: manager.id)
        let myStoreID = try await CommentFixture.store(app, name: "我的店", categoryID: categoryID, managerID: me.id)
        let storePhotoID = try await TestImages.row(app, uploaderID: me.id)
        try await database.query(
            "INSERT INTO store_images (store_id, position, image_id) VALUES (\(myStoreID), 0, \(storePhotoID))")
        let avatar = try await TestImages.row(app, uploaderID: me.id)
        let reviewPhoto = try await TestImages.row(app, uploaderID: me.id)
        _ = try await client.send(.put, "/v1/me/avatar", body: ["imageId": avatar], token: me.token)

        func review(_ author: Session, _ store: String, _ rating: Int, _ body: String) async throws -> String {
            try await database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, taste, price_per_person, body)
                VALUES ('review', \(store), \(author.id), \(rating), \(rating), 88, \(body)) RETURNING id
                """
            ).first!.decode(String.self)
        }
        let myReviewID = try await review(me, storeID, 2, "毛肚一般，鸭肠很好吃")
        _ = try await review(me, myStoreID, 5, "自己的店")
        let otherReviewID = try await review(other, storeID, 4, "虾饺很好吃")
        _ = try await review(other, myStoreID, 3, "叉烧一般")
        try await database.query(
            "INSERT INTO comment_images (comment_id, position, image_id) VALUES (\(myReviewID), 0, \(reviewPhoto))")
        try await database.query(
            """
            INSERT INTO comment_likes (comment_id, user_id) VALUES (\(otherReviewID), \(me.id)),
                (\(myReviewID), \(other.id)), (\(otherReviewID), \(manager.id))
            """)
        try await database.query(
            """
            INSERT INTO comment_replies (comment_id, author_id, body) VALUES (\(myReviewID), \(manager.id), '谢谢'),
                ((SELECT id FROM comments WHERE store_id = \(myStoreID) AND author_id = \(other.id)), \(me.id), '欢迎再来')
            """)
        try await database.query(
            "INSERT INTO favorites (user_id, store_id) VALUES (\(me.id), \(storeID)), (\(other.id), \(storeID))")
        // Follows both ways (each notifies the followed: notifications, their actors and counters name both).
        try await database.query(
            "INSERT INTO follows (follower_id, followee_id) VALUES (\(me.id), \(other.id)), (\(other.id), \(me.id))")
        try await database.query(
            """
            INSERT INTO reports (comment_id, reporter_id, reason) VALUES (\(otherReviewID), \(me.id), 'spam'),
                (\(myReviewID), \(other.id), 'fake')
            """)
        try await database.query(
            "INSERT INTO promotions (store_id, buyer_id, amount) VALUES (\(myStoreID), \(me.id), 500)")
        try await database.query(
            "INSERT INTO moderation_log (comment_id, action, admin_id) VALUES (\(otherReviewID), 'dismiss', \(me.id))")
        // A coupon of the other store, claimed (its holder row and the claim name the user).
        let couponID = try await database.query(
            """
            INSERT INTO coupons (store_id, title, face_value, stock, ends_at) VALUES (\(storeID), '满50减10', 10, 5,
                now() + interval '1 day') RETURNING id
            """
        ).first!.decode(String.self)
        let claimed = try await client.send(.post, "/v1/coupons/\(couponID)/claims", token: me.token)
        guard claimed.status == .created else { throw TestFailure("claim: \(claimed.text)") }

        // The recommender's history: both open both stores within a day, so the pair counts two viewers.
        let visits = StoreVisits(database: database)
        let now = Date()
        for viewer in ["u:\(me.id)", "u:\(other.id)"] {
            try await visits.record(viewer: viewer, storeID: storeID, at: now.addingTimeInterval(-60))
            try await visits.record(viewer: viewer, storeID: myStoreID, at: now)
        }
        let interests = InterestRepository(database: database, halfLife: 7 * 86_400)
        _ = try await interests.recordOpen(viewer: "u:\(me.id)", commentID: otherReviewID, at: now)
        try await database.query(
            """
            INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
            VALUES ('u:' || \(me.id), \(categoryID), 1, now(), 1) ON CONFLICT DO NOTHING
            """)
        try await database.query(
            """
            INSERT INTO viewer_explore (viewer, category_id, shown, clicked, exploring, updated_at)
            VALUES ('u:' || \(me.id), \(categoryID), 3, 1, true, now())
            """)
        // A signal a server queued and nobody drained yet.
        try await SignalQueue(database: database, halfLife: 7 * 86_400)
            .push(.init(events: [.signal(viewer: "u:\(me.id)", about: .store(storeID), weight: 3, at: now)]))
        try await database.query("SELECT rate_token('export|u:' || \(me.id), 3, 0.1)")
        try await database.query(
            """
            SELECT rate_take(ARRAY['password:n:' || \(me.id), 'login:na:' || lower(\(name)) || '|127.0.0.1'],
                             ARRAY[5, 5], 900)
            """)
        // What the trust judge remembers of the user: an origin (a keyed hash) and a text band of their review.
        try await database.query(
            "INSERT INTO trust_origins (user_id, origin) VALUES (\(me.id), trust_origin_hash('v', 'mydata-device'))")
        try await database.query(
            """
            INSERT INTO trust_text_bands (band, author_id, comment_id, created_at)
            SELECT 42, author_id, id, created_at FROM comments WHERE id = \(myReviewID)
            """)
        // The store is the manager's to archive before the account can go.
        try await CommentFixture.archive(app, storeID: myStoreID)
        return MyDataWorld(
            me: me, other: other, manager: manager, admin: admin, storeID: storeID, myStoreID: myStoreID,
            myReviewID: myReviewID, otherReviewID: otherReviewID, myImages: [storePhotoID, avatar, reviewPhoto],
            storePhotoID: storePhotoID)
    }
}
