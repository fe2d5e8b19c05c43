import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The manager's insights on /manage/stores/{id} and the platform's on /admin: the rank line, four charts each
/// with its table, the CSV; clicks counted from the web's marked cards.
@Suite struct WebInsightsTests {
    @Test func theManagersPageDrawsChartsWithTablesAndTheRankLine() async throws {
        try await TestApp.run { client, app in
            // setup: two promoted stores; ours second, 300 behind
            let world = try await CommentWorld.make(client, app)
            let rival = try await CommentFixture.store(
                app, name: "对手", categoryID: world.categoryID,
                managerID: (try await client.register("对手", role: "manager")).id)
            try await app.database.query("UPDATE stores SET created_at = now() - interval '1 day' WHERE id = \(rival)")
            try await app.database.query(
                "INSERT INTO promotions (store_id, buyer_id, amount) SELECT \(rival), manager_id, 700 FROM stores WHERE id = \(rival)"
            )
            await app.settle()
            let boss = try await WebWritingTests.signedIn(client, world.manager.name)
            let bought = try await boss.post("/manage/stores/\(world.storeID)/promotions", ["amount": "400"])
            #expect(bought.status == .seeOther)
            // a visitor follows our card from the home page's 每日促销
            let visitor = WebBrowser(client)
            let home = try await visitor.get("/").text
            #expect(home.contains("href=\"/stores/\(world.storeID)?from=daily\""))
            #expect(try await visitor.get("/stores/\(world.storeID)?from=daily").status == .ok)
            try await app.services.insightFlusher.flush()
            // MUT
            let page = try await boss.get("/manage/stores/\(world.storeID)").text
            let ninety = try await boss.get("/manage/stores/\(world.storeID)?days=90").text
            let csv = try await boss.get("/manage/stores/\(world.storeID)/insights.csv?days=30")
            // validate: second place, 300 + 1 to pass the earlier store
            #expect(page.contains("每日促销第 2 位 · 再投 ¥301 升到第 1 位"))
            #expect(page.components(separatedBy: "<svg class=\"chart\"").count == 6)
            #expect(page.components(separatedBy: "<div class=\"chart-table\" tabindex=\"0\"").count == 6)
            #expect(page.contains("领券与核销"))
            #expect(page.contains("role=\"img\""))
            #expect(page.contains("各来源的卡片点击"))
            #expect(
                page.contains("<a href=\"/manage/stores/\(world.storeID)?days=30\" aria-current=\"page\">近 30 天</a>"))
            #expect(ninety.components(separatedBy: "<th scope=\"row\">").count == 5 * 90 + 1)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.count == 31)
            // today's line: the visitor's view (the manager's own are not counted) and its click from 每日促销
            let fields = lines.last?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
            #expect(fields.count == 21)
            #expect(fields[1] == "1")
            #expect(fields[8] == "1")
        }
    }

    @Test func anotherManagerSeesNeitherThePageNorTheCSV() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            _ = try await client.register("隔壁", role: "manager")
            let other = try await WebWritingTests.signedIn(client, "隔壁")
            // MUT + validate
            #expect(try await other.get("/manage/stores/\(world.storeID)").status == .forbidden)
            #expect(try await other.get("/manage/stores/\(world.storeID)/insights.csv").status == .forbidden)
            #expect(try await WebBrowser(client).get("/manage/stores/\(world.storeID)/insights.csv").status != .ok)
        }
    }

    @Test func theAdminPageShowsThePlatformsDay() async throws {
        try await TestApp.run { client, app in
            // setup: a review and a purchase today
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(5, "好")
            _ = try await client.send(
                .post, "/v1/stores/\(world.storeID)/promotions", body: ["amount": 88], token: world.manager.token)
            let admin = try await WebAdminTests.signedInAdmin(client, app)
            try await app.services.insightFlusher.flush()
            // MUT
            let page = try await admin.get("/admin").text
            // validate
            #expect(page.contains("平台数据"))
            #expect(page.components(separatedBy: "<svg class=\"chart\"").count == 4)
            #expect(page.contains("<dt>推广收入</dt><dd>¥88</dd>"))
            #expect(page.contains("<dt>新评价</dt><dd>1</dd>"))
        }
    }
}
