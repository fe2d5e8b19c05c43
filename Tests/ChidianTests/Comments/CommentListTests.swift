import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct CommentListTests {
    @Test func aStoreListsBothKindsNewestFirstByDefault() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let first = try await world.review(3)["id"] as! String
            let notice = try await world.comment(["body": "周末八折"], as: world.manager)["id"] as! String
            let last = try await world.review(5)["id"] as! String
            let otherStore = try await CommentFixture.store(
                app, name: "海底捞", categoryID: world.categoryID, managerID: world.manager.id)
            _ = try await world.review(4, storeID: otherStore)
            // MUT
            let response = try await client.send(.get, "/v1/stores/\(world.storeID)/comments")
            // validate
            #expect(response.status == .ok)
            #expect(try CommentFixture.ids(response) == [last, notice, first])
            #expect(try response.json()["nextCursor"] is NSNull)
        }
    }

    @Test func kindFiltersAndRatingSortsHighestFirstThenNewest() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let three = try await world.review(3)["id"] as! String
            let fiveOld = try await world.review(5)["id"] as! String
            let notice = try await world.comment(["body": "新菜单"], as: world.manager)["id"] as! String
            let one = try await world.review(1)["id"] as! String
            let fiveNew = try await world.review(5)["id"] as! String
            let base = "/v1/stores/\(world.storeID)/comments"
            // MUT
            let reviews = try await client.send(.get, "\(base)?kind=review")
            let notices = try await client.send(.get, "\(base)?kind=notice")
            let byRating = try await client.send(.get, "\(base)?sort=rating")
            let reviewsByRating = try await client.send(.get, "\(base)?kind=review&sort=rating")
            let newest = try await client.send(.get, "\(base)?sort=newest")
            // validate
            #expect(try CommentFixture.ids(reviews) == [fiveNew, one, fiveOld, three])
            #expect(try CommentFixture.ids(notices) == [notice])
            // Notices have no rating: they come after every review.
            #expect(try CommentFixture.ids(byRating) == [fiveNew, fiveOld, three, one, notice])
            #expect(try CommentFixture.ids(reviewsByRating) == [fiveNew, fiveOld, three, one])
            #expect(try CommentFixture.ids(newest) == [fiveNew, one, notice, fiveOld, three])
        }
    }

    @Test func badKindSortLimitOrCursorAreRefused() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let base = "/v1/stores/\(world.storeID)/comments"
            let cases: [(String, String)] = [
                ("\(base)?kind=reviews", "invalid_kind"),
                ("\(base)?kind=", "invalid_kind"),
                ("\(base)?sort=best", "invalid_sort"),
                ("\(base)?limit=0", "invalid_limit"),
                ("\(base)?limit=101", "invalid_limit"),
                ("\(base)?cursor=garbage", "invalid_cursor"),
                // A well-formed cursor of this list whose timestamp is nonsense.
                (
                    "\(base)?cursor=\(Cursor(list: "store-comments.newest", keys: ["yesterday-ish", "m_1"]).token)",
                    "invalid_cursor"
                ),
                (
                    "\(base)?sort=rating&cursor=\(Cursor(list: "store-comments.rating", keys: ["9", "2024-01-01", "m_1"]).token)",
                    "invalid_cursor"
                ),
                // A cursor of the other sort.
                (
                    "\(base)?sort=rating&cursor=\(Cursor(list: "store-comments.newest", keys: ["2024-01-01 00:00:00+00", "m_1"]).token)",
                    "invalid_cursor"
                ),
            ]
            for (uri, code) in cases {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.problemCode == code, "\(uri)")
            }
        }
    }

    @Test func unknownOrArchivedStoresAreNotFound() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(4)
            let unknown = try await client.send(.get, "/v1/stores/s_missing/comments")
            try await CommentFixture.archive(app, storeID: world.storeID)
            let archived = try await client.send(.get, "/v1/stores/\(world.storeID)/comments")
            #expect(unknown.status == .notFound)
            #expect(unknown.problemCode == "store_not_found")
            #expect(archived.status == .notFound)
            #expect(archived.problemCode == "store_not_found")
        }
    }

    /// Many comments share one timestamp (as a bulk import makes): pages still neither repeat nor skip.
    @Test(arguments: ["", "?sort=rating", "?kind=review&sort=rating", "?kind=review"])
    func paginationNeverRepeatsOrSkipsEvenOnTies(query: String) async throws {
        try await TestApp.run { client, app in
            // setup: 23 reviews, most with one created_at, and a notice.
            let world = try await CommentWorld.make(client, app)
            for index in 0..<23 { _ = try await world.review(index % 5 + 1, "第\(index)条") }
            _ = try await world.comment(["body": "公告"], as: world.manager)
            try await app.database.query(
                "UPDATE comments SET created_at = '2024-03-01 12:00:00.123456+00' WHERE body LIKE '第1%' OR body LIKE '第2%'"
            )
            let all = try CommentFixture.ids(
                try await client.send(
                    .get, "/v1/stores/\(world.storeID)/comments\(query)\(query.isEmpty ? "?" : "&")limit=100"))
            // MUT
            let walked = try await CommentFixture.walk(client, "/v1/stores/\(world.storeID)/comments\(query)", limit: 4)
            // validate
            #expect(walked.ids == all)
            #expect(Set(walked.ids).count == walked.ids.count)
            #expect(all.count == (query.contains("kind=review") ? 23 : 24))
            #expect(walked.pages == (all.count + 3) / 4)
        }
    }

    @Test func aUsersCommentsAreListedNewestFirstAcrossStores() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let otherStore = try await CommentFixture.store(
                app, name: "海底捞", categoryID: world.categoryID, managerID: world.manager.id)
            let a = try await world.review(4)["id"] as! String
            let b = try await world.review(2, storeID: otherStore)["id"] as! String
            let c = try await world.review(5)["id"] as! String
            let someoneElse = try await client.register("路人")
            _ = try await world.review(3, as: someoneElse)
            for index in 0..<7 { _ = try await world.review(3, "批量\(index)", as: someoneElse) }
            // MUT
            let theirs = try await client.send(.get, "/v1/users/\(world.user.id)/comments")
            let mine = try await client.send(.get, "/v1/me/comments", token: world.user.token)
            let walked = try await CommentFixture.walk(client, "/v1/users/\(someoneElse.id)/comments", limit: 3)
            // validate
            #expect(theirs.status == .ok)
            #expect(try CommentFixture.ids(theirs) == [c, b, a])
            #expect(try CommentFixture.ids(mine) == [c, b, a])
            #expect(walked.ids.count == 8 && Set(walked.ids).count == 8)
        }
    }

    @Test func userListsAnswerForUnknownUsersAndNobody() async throws {
        try await TestApp.run { client, _ in
            let unknown = try await client.send(.get, "/v1/users/u_missing/comments")
            let nobody = try await client.send(.get, "/v1/me/comments")
            let visitor = try await client.send(
                .get, "/v1/me/comments", headers: [HTTPField.Name("X-Visitor-Id")!: "visitor-12345"])
            #expect(unknown.status == .notFound)
            #expect(unknown.problemCode == "user_not_found")
            #expect(nobody.status == .unauthorized)
            #expect(nobody.problemCode == "login_required")
            #expect(visitor.problemCode == "login_required")
        }
    }

    @Test func hiddenCommentsAndArchivedStoresLeaveEveryList() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let kept = try await world.review(4)["id"] as! String
            let hidden = try await world.review(1)["id"] as! String
            let closed = try await CommentFixture.store(
                app, name: "已关门", categoryID: world.categoryID, managerID: world.manager.id)
            _ = try await world.review(5, storeID: closed)
            // MUT
            _ = try await CommentModeration.hide(id: hidden, database: app.database)
            try await CommentFixture.archive(app, storeID: closed)
            // validate
            #expect(
                try CommentFixture.ids(try await client.send(.get, "/v1/stores/\(world.storeID)/comments")) == [kept])
            #expect(
                try CommentFixture.ids(try await client.send(.get, "/v1/users/\(world.user.id)/comments")) == [kept])
            #expect(
                try CommentFixture.ids(try await client.send(.get, "/v1/me/comments", token: world.user.token)) == [
                    kept
                ])
        }
    }
}
