import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The admins' side of issue #48: a verdict by hand that stands, logged; the queue of suspicious reviews; the
/// manager's per-day count, never whose.
@Suite struct TrustAdminTests {
    static func verdict(_ client: any TestClientProtocol, _ id: String, _ body: [String: Any], token: String?)
        async throws -> TestResponse
    {
        try await client.send(.put, "/v1/comments/\(id)/recommended", body: body, token: token)
    }

    static func logged(_ client: any TestClientProtocol, _ id: String, token: String) async throws -> [String] {
        try CommentFixture.items(try await client.send(.get, "/v1/moderation/log", token: token))
            .filter { $0["commentId"] as? String == id }.compactMap { $0["action"] as? String }
    }

    @Test func anAdminsVerdictGoesBothWaysIsLoggedAndStandsAgainstTheJudge() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client)
            let id = try RecommendedFixture.id(try await world.review(5, "好"))
            // MUT
            let off = try await Self.verdict(client, id, ["recommended": false, "note": "刷单"], token: admin.token)
            // validate
            #expect(off.status == .ok)
            #expect(try off.json()["recommended"] as? Bool == false)
            #expect(try await RecommendedFixture.store(client, world.storeID).rating.count == 0)
            // the judge cannot undo it
            let took = try await app.database.query("SELECT trust_machine_verdict(\(id), true, 0.5)")[0]
                .decode(Bool.self)
            await app.settle()
            #expect(!took)
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 1)
            // MUT: an admin can
            let on = try await Self.verdict(client, id, ["recommended": true], token: admin.token)
            #expect(on.status == .ok)
            #expect(try on.json()["recommended"] as? Bool == true)
            let store = try await RecommendedFixture.store(client, world.storeID)
            #expect(store.rating.count == 1 && store.notRecommendedCount == 0)
            #expect(try await Self.logged(client, id, token: admin.token) == ["recommend", "not_recommend"])
            let note =
                try CommentFixture.items(try await client.send(.get, "/v1/moderation/log", token: admin.token))
                .first { $0["action"] as? String == "not_recommend" }?["note"] as? String
            #expect(note == "刷单")
        }
    }

    @Test func theJudgeDecidesReviewsNoAdminJudged() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(try await world.review(5, "好"))
            // MUT
            let took = try await app.database.query("SELECT trust_machine_verdict(\(id), false, 0.9)")[0]
                .decode(Bool.self)
            await app.settle()
            // validate
            #expect(took)
            #expect(try await RecommendedFixture.store(client, world.storeID).notRecommendedCount == 1)
        }
    }

    @Test func onlyAdminsJudgeAndReadTheQueue() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client)
            let id = try RecommendedFixture.id(try await world.review(5, "好"))
            let notice = try RecommendedFixture.id(try await world.comment(["body": "通知"], as: world.manager))
            for session in [world.user, world.manager] {
                // MUT
                let put = try await Self.verdict(client, id, ["recommended": false], token: session.token)
                let queue = try await client.send(.get, "/v1/admin/trust", token: session.token)
                // validate
                #expect(put.status == .forbidden && put.problemCode == "admin_required")
                #expect(queue.status == .forbidden && queue.problemCode == "admin_required")
            }
            #expect(try await Self.verdict(client, id, ["recommended": false], token: nil).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/admin/trust").status == .unauthorized)
            let unknown = try await Self.verdict(client, "m_missing", ["recommended": false], token: admin.token)
            #expect(unknown.problemCode == "comment_not_found")
            let onNotice = try await Self.verdict(client, notice, ["recommended": false], token: admin.token)
            #expect(onNotice.problemCode == "not_a_review")
            for body in [[:], ["recommended": "false"], ["recommended": NSNull()]] as [[String: Any]] {
                let bad = try await Self.verdict(client, id, body, token: admin.token)
                #expect(bad.status == .badRequest, "\(body)")
            }
            // nothing refused changed the review
            #expect(try await RecommendedFixture.store(client, world.storeID).rating.count == 1)
            #expect(try await Self.logged(client, id, token: admin.token).isEmpty)
        }
    }

    @Test func theQueueListsSuspiciousReviewsMostSuspiciousFirstWithTheirSignals() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let admin = try await app.admin(client)
            let fine = try RecommendedFixture.id(try await world.review(4, "正常"))
            let low = try RecommendedFixture.id(try await world.review(5, "有点可疑"))
            let high = try RecommendedFixture.id(try await world.review(5, "很可疑"))
            let judged = try RecommendedFixture.id(try await world.review(5, "已判"))
            _ = try await app.database.query("SELECT trust_machine_verdict(\(low), true, 0.25)")
            _ = try await app.database.query("SELECT trust_machine_verdict(\(high), false, 0.75)")
            _ = try await Self.verdict(client, judged, ["recommended": false], token: admin.token)
            _ = try await app.database.query(
                """
                INSERT INTO comment_signals (comment_id, kind, detail)
                VALUES (\(high), 'burst', '12 reviews in an hour'), (\(high), 'new_account', 'made today')
                """)
            // MUT
            let first = try CommentFixture.items(try await client.send(.get, "/v1/admin/trust", token: admin.token))
            // validate
            let order = first.compactMap { ($0["comment"] as? [String: Any])?["id"] as? String }
            #expect(order == [high, low, judged])
            #expect(!order.contains(fine))
            #expect(first.first?["score"] as? Double == 0.75)
            let kinds = (first.first?["signals"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(Set(kinds) == ["burst", "new_account"])
            // paging one at a time gives the same order
            var cursor: String? = nil
            var paged: [String] = []
            repeat {
                let query = cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
                let page = try await client.send(
                    .get, "/v1/admin/trust?limit=1\(query ?? "")", token: admin.token
                ).json()
                paged += (page["items"] as? [[String: Any]] ?? []).compactMap {
                    ($0["comment"] as? [String: Any])?["id"] as? String
                }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(paged == [high, low, judged])
        }
    }

    @Test func theManagerSeesHowManyWereNotRecommendedEachDayNeverWhose() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(4, "留下")
            let judged = try RecommendedFixture.id(try await world.review(1, "刷的"))
            try await RecommendedFixture.judge(app, judged, recommended: false)
            let path = "/v1/stores/\(world.storeID)/insights"
            // MUT
            let json = try await client.send(.get, path, token: world.manager.token)
            let csv = try await client.send(.get, path + "?format=csv", token: world.manager.token).text
            // validate
            let totals = try #require(try json.json()["totals"] as? [String: Any])
            #expect(totals["reviews"] as? Int == 1 && totals["notRecommended"] as? Int == 1)
            #expect(totals["ratingAverage"] as? Double == 4)
            #expect(!json.text.contains(judged) && !json.text.contains(world.user.id))
            let lines = csv.split(separator: "\r\n")
            let header = lines.first?.split(separator: ",").map(String.init) ?? []
            let today = lines.last?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
            let column = try #require(header.firstIndex(of: "not_recommended"))
            #expect(header[column - 1] == "reviews" && today[column - 1] == "1" && today[column] == "1")
        }
    }
}
