import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A user's page shows their followers and whom they follow, as the API counts them.
@Suite struct WebPeopleTests {
    @Test func aUsersPageShowsTheFollowCounts() async throws {
        try await TestApp.run { client, _ in
            // setup
            let fan = try await client.register("追随者")
            let writer = try await client.register("写手")
            #expect(try await client.send(.put, "/v1/users/\(writer.id)/follow", token: fan.token).status == .noContent)
            // MUT
            let writerPage = try await WebBrowser(client).get("/users/\(writer.id)").text
            let fanPage = try await WebBrowser(client).get("/users/\(fan.id)").text
            // validate
            #expect(writerPage.contains("1 粉丝 · 0 关注"))
            #expect(fanPage.contains("0 粉丝 · 1 关注"))
        }
    }

    @Test func aFollowNotificationLinksTheFollowersName() async throws {
        try await TestApp.run { client, _ in
            // setup
            let fan = try await client.register("追随者")
            let writer = try await client.register("写手")
            #expect(try await client.send(.put, "/v1/users/\(writer.id)/follow", token: fan.token).status == .noContent)
            // MUT
            let page = try await WebWritingTests.signedIn(client, "写手").get("/me/notifications").text
            // validate: the name is the link, and no link is left without text (axe's link-name)
            #expect(page.contains("<strong><a href=\"/users/\(fan.id)\">追随者</a></strong> 关注了你"))
            #expect(!page.contains("\"></a>"))
        }
    }
}
