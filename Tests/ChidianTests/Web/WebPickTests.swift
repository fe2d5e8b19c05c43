import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The web side of places: a manager writes a position and hours as people do; /pick answers for a position or
/// a city, with 换一个.
@Suite struct WebPickTests {
    @Test func aManagerWritesHoursAndAPositionAsPeopleDo() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            let boss = try await WebWritingTests.signedIn(client, world.manager.name)
            let path = "/manage/stores/\(world.storeID)"
            func version() async throws -> String {
                let page = try await boss.get(path).text
                return String(try #require(page.firstMatch(of: /name="version" value="(\d+)"/)?.1))
            }
            // MUT
            let saved = try await boss.postMultipart(
                path,
                [
                    "version": try await version(), "name": "小龙坎", "categoryId": world.categoryID,
                    "location": "30.659，104.081", "hours": "周一至周五 11:00-14:00, 17:00-02:00；周六、周日 10:00-22:00",
                    "timeZone": "Asia/Shanghai",
                ])
            let refused = try await boss.postMultipart(
                path,
                [
                    "version": try await version(), "name": "小龙坎", "categoryId": world.categoryID,
                    "hours": "周八 10:00-12:00",
                ])
            // validate
            #expect(saved.headers[.location] == "\(path)?saved=edit")
            let store = try await client.send(.get, "/v1/stores/\(world.storeID)").json()
            #expect(store["location"] as? [String: Double] == ["lat": 30.659, "lng": 104.081])
            #expect((store["hours"] as? [[String: Any]])?.count == 12)
            let page = try await boss.get(path).text
            #expect(page.contains("周一至周五 11:00-14:00, 17:00-02:00；周六至周日 10:00-22:00"))
            #expect(page.contains("value=\"30.659,104.081\""))
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("营业时间看不懂"))
            #expect((try await client.send(.get, "/v1/stores/\(world.storeID)").json()["hours"] as? [Any])?.count == 12)
        }
    }

    @Test func pickForACityAndAnotherOne() async throws {
        try await TestApp.run { client, app in
            // setup: two stores near the centre of Chengdu, open round the clock
            let manager = try await client.register("Boss", role: "manager")
            let hotpot = try await StoreFixture.category(app, "火锅")
            var ids: [String] = []
            for (name, lat) in [("近的店", 30.6600), ("远一点", 30.6700)] {
                ids.append(
                    try await PickTests.store(
                        client, app, manager, name: name, category: hotpot, lat: lat, lng: 104.0633))
            }
            let visitor = WebBrowser(client)
            // MUT
            let home = try await visitor.get("/").text
            let first = try await visitor.get("/pick?near=&city=30.6598,104.0633")
            let firstID = try #require(first.text.firstMatch(of: /data-pick="([^"]+)"/)?.1)
            let again = try #require(first.text.firstMatch(of: /id="pick-again" href="([^"]+)"/)?.1)
            let second = try await visitor.get(String(again).replacingOccurrences(of: "&amp;", with: "&"))
            let secondID = try #require(second.text.firstMatch(of: /data-pick="([^"]+)"/)?.1)
            let third = try await visitor.get(
                "/pick?near=30.6598,104.0633&skip=\(ids.joined(separator: ","))")
            // validate
            #expect(
                home.contains("id=\"pick-button\"") && home.contains("<option value=\"30.6598,104.0633\">成都</option>"))
            #expect(first.status == .ok)
            #expect(Set([String(firstID), String(secondID)]) == Set(ids), "换一个 gives the other store")
            #expect(first.text.contains("24 小时营业"))
            #expect(third.status == .notFound)
            #expect(third.text.contains("附近没有正在营业的店"))
        }
    }
}
