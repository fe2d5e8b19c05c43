import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Reports and the admins' queue: reasons and refusals, most reported first, hide / restore / dismiss with their
/// effect on lists and aggregates, the log, and the CLI doing the same.
@Suite struct ModerationTests {
    struct World {
        let base: CommentWorld
        let admin: Session
        let reporters: [Session]
    }

    static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> World {
        let base = try await CommentWorld.make(client, app)
        let admin = try await app.admin(client, name: "审核员")
        var reporters: [Session] = []
        for n in 0..<3 { reporters.append(try await client.register("举报人\(n)")) }
        return World(base: base, admin: admin, reporters: reporters)
    }

    static func report(
        _ client: any TestClientProtocol, _ id: String, _ session: Session?, reason: Any = "spam", note: Any? = nil
    ) async throws -> TestResponse {
        var body: [String: Any] = ["reason": reason]
        if let note { body["note"] = note }
        return try await client.send(.post, "/v1/comments/\(id)/reports", body: body, token: session?.token)
    }

    @Test func reportsAreCheckedAndOnePerUserWhileOpen() async throws {
        try await TestApp.run { client, app in
            let world = try await Self.make(client, app)
            let id = try await world.base.review(2)["id"] as! String
            // MUT
            let filed = try await Self.report(client, id, world.reporters[0], reason: "fake", note: "  刷单  ")
            // validate
            #expect(filed.status == .created)
            let report = try filed.json()
            #expect(report["reason"] as? String == "fake")
            #expect(report["note"] as? String == "刷单")
            #expect(report["commentId"] as? String == id)
            #expect(report["reporterId"] as? String == world.reporters[0].id)
            #expect(try await Self.report(client, id, world.reporters[0]).problemCode == "already_reported")
            #expect(
                try await Self.report(client, id, world.reporters[1], reason: "rude").problemCode == "invalid_reason")
            #expect(
                try await Self.report(client, id, world.reporters[1], note: String(repeating: "长", count: 501))
                    .problemCode == "invalid_note")
            #expect(try await Self.report(client, id, world.base.user).problemCode == "own_comment")
            #expect(try await Self.report(client, id, nil).problemCode == "login_required")
            #expect(try await Self.report(client, "m_none", world.reporters[1]).problemCode == "comment_not_found")
            let count = try await app.database.query("SELECT count(*)::int FROM reports")[0].decode(Int.self)
            #expect(count == 1)
        }
    }

    @Test func theQueueIsForAdminsMostReportedFirst() async throws {
        try await TestApp.run { client, app in
            let world = try await Self.make(client, app)
            let once = try await world.base.review(3)["id"] as! String
            let thrice = try await world.base.review(1, "差评")["id"] as! String
            let twice = try await world.base.comment(["body": "通知"], as: world.base.manager)["id"] as! String
            for (id, count) in [(once, 1), (thrice, 3), (twice, 2)] {
                for reporter in world.reporters.prefix(count) {
                    #expect(try await Self.report(client, id, reporter).status == .created)
                }
            }
            // MUT
            let queue = try await client.send(.get, "/v1/moderation/reports", token: world.admin.token)
            // validate
            let items = try CommentFixture.items(queue)
            #expect(items.map { ($0["comment"] as? [String: Any])?["id"] as? String } == [thrice, twice, once])
            #expect(items.map { $0["reportCount"] as? Int } == [3, 2, 1])
            #expect(items.allSatisfy { $0["status"] as? String == "open" && $0["hidden"] as? Bool == false })
            var walked: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/v1/moderation/reports?limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""),
                    token: world.admin.token)
                walked += try CommentFixture.items(page).compactMap {
                    ($0["comment"] as? [String: Any])?["id"] as? String
                }
                cursor = try page.json()["nextCursor"] as? String
            } while cursor != nil
            #expect(walked == [thrice, twice, once])
            for session in [world.base.user, world.base.manager] {
                #expect(
                    try await client.send(.get, "/v1/moderation/reports", token: session.token).problemCode
                        == "admin_required")
            }
            #expect(
                try await client.send(.get, "/v1/moderation/reports?status=all", token: world.admin.token).problemCode
                    == "invalid_status")
        }
    }

    @Test func hideRestoreAndDismissActOnListsAggregatesAndTheLog() async throws {
        try await TestApp.run { client, app in
            let world = try await Self.make(client, app)
            let other = try await client.register("另一位")
            _ = try await world.base.review(5, "好", as: other)
            let bad = try await world.base.review(1, "广告")["id"] as! String
            #expect(try await Self.report(client, bad, world.reporters[0]).status == .created)
            func act(_ action: String, _ id: String = bad) async throws -> [String: Any] {
                let response = try await client.send(
                    .post, "/v1/moderation/comments/\(id)", body: ["action": action, "note": "复核"],
                    token: world.admin.token)
                guard response.status == .ok else { throw TestFailure("\(action): \(response.text)") }
                return try response.json()
            }
            func average() async throws -> Double? {
                let store = try await client.send(.get, "/v1/stores/\(world.base.storeID)").json()
                return (store["rating"] as? [String: Any])?["average"] as? Double
            }
            #expect(try await average() == 3.0)
            // MUT: hide
            let hidden = try await act("hide")
            #expect(hidden["hidden"] as? Bool == true)
            #expect(hidden["status"] as? String == "closed")
            #expect(try await client.send(.get, "/v1/comments/\(bad)").status == .notFound)
            #expect(try await average() == 5.0)
            #expect(
                try CommentFixture.items(
                    try await client.send(.get, "/v1/moderation/reports", token: world.admin.token)
                ).isEmpty)
            let closed = try CommentFixture.items(
                try await client.send(.get, "/v1/moderation/reports?status=closed", token: world.admin.token))
            #expect(closed.first?["hidden"] as? Bool == true)
            // restore: back in lists and the average
            let restored = try await act("restore")
            #expect(restored["hidden"] as? Bool == false)
            #expect(try await client.send(.get, "/v1/comments/\(bad)?track=false").status == .ok)
            #expect(try await average() == 3.0)
            // a new report, dismissed: closed, the comment stays
            #expect(try await Self.report(client, bad, world.reporters[0]).status == .created)
            let dismissed = try await act("dismiss")
            #expect(dismissed["status"] as? String == "closed")
            #expect(dismissed["hidden"] as? Bool == false)
            // the log, newest first, with the admin
            let log = try CommentFixture.items(
                try await client.send(.get, "/v1/moderation/log", token: world.admin.token))
            #expect(log.map { $0["action"] as? String } == ["dismiss", "restore", "hide"])
            #expect(log.allSatisfy { $0["adminId"] as? String == world.admin.id && $0["note"] as? String == "复核" })
            // refusals
            let wrong = try await client.send(
                .post, "/v1/moderation/comments/\(bad)", body: ["action": "delete"], token: world.admin.token)
            #expect(wrong.problemCode == "invalid_action")
            let notAdmin = try await client.send(
                .post, "/v1/moderation/comments/\(bad)", body: ["action": "hide"], token: world.base.manager.token)
            #expect(notAdmin.problemCode == "admin_required")
            let missing = try await client.send(
                .post, "/v1/moderation/comments/m_none", body: ["action": "hide"], token: world.admin.token)
            #expect(missing.problemCode == "comment_not_found")
        }
    }

    @Test func theCommandLineListsHidesAndRestores() async throws {
        try await TestApp.run { client, app in
            let world = try await Self.make(client, app)
            let bad = try await world.base.review(1, "广告")["id"] as! String
            for reporter in world.reporters.prefix(2) {
                #expect(try await Self.report(client, bad, reporter).status == .created)
            }
            // MUT
            let listed = try await ChidianBinary.run(["report", "list"], databaseURL: app.url)
            let hidden = try await ChidianBinary.run(["comment", "hide", bad, "--note", "广告"], databaseURL: app.url)
            await app.settle()
            let afterHide = try await client.send(.get, "/v1/comments/\(bad)").status
            let restored = try await ChidianBinary.run(["comment", "restore", bad], databaseURL: app.url)
            await app.settle()
            // validate
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains(bad) && listed.stdout.contains("\t2\t"))
            #expect(hidden.status == 0, "\(hidden.stderr)")
            #expect(afterHide == .notFound)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(try await client.send(.get, "/v1/comments/\(bad)?track=false").status == .ok)
            let log = try CommentFixture.items(
                try await client.send(.get, "/v1/moderation/log", token: world.admin.token))
            #expect(log.map { $0["action"] as? String } == ["restore", "hide"])
            #expect(log.allSatisfy { $0["adminId"] is NSNull })
        }
    }
}
