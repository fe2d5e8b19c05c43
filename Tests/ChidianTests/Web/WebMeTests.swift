import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 我的: profile changes through the API's rules, favorites, reviews and interests, and the interests reset.
@Suite struct WebMeTests {
    @Test func nameAvatarAndPasswordChangeByTheAPIsRules() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            _ = try await client.register("别人")
            let me = try await WebWritingTests.signedIn(client, world.user.name)
            #expect(try await WebBrowser(client).get("/me").headers[.location] == "/login?next=%2Fme")
            // MUT: a name already taken, then a free one
            let taken = try await me.post("/me/name", ["name": "别人"])
            let renamed = try await me.post("/me/name", ["name": "新名字"])
            // validate
            #expect(taken.status == .conflict)
            #expect(taken.text.contains("用户名重复"))
            #expect(renamed.headers[.location] == "/me?saved=name")
            #expect(try await client.send(.get, "/v1/users/\(world.user.id)").json()["name"] as? String == "新名字")
            // avatar: through the upload rules
            let bad = try await me.postMultipart("/me/avatar", [:], photos: [Array("text".utf8)])
            #expect(bad.status == .unsupportedMediaType)
            let avatar = try await me.postMultipart("/me/avatar", [:], photos: [TestImages.png(width: 3, height: 3)])
            #expect(avatar.headers[.location] == "/me?saved=avatar")
            let profile = try await client.send(.get, "/v1/users/\(world.user.id)").json()
            let url = try #require(profile["avatarUrl"] as? String)
            #expect(try await me.get("/me").text.contains("src=\"\(url)\""))
            // password: the wrong current one is refused beside its form; the right one revokes other sessions
            let api =
                try await client.send(
                    .post, "/v1/auth/login", body: ["name": "新名字", "password": "correct horse"]
                ).json()["token"] as! String
            let wrong = try await me.post(
                "/me/password", ["currentPassword": "nope nope", "newPassword": "a new horse"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("密码错误"))
            let changed = try await me.post(
                "/me/password", ["currentPassword": "correct horse", "newPassword": "a new horse"])
            #expect(changed.headers[.location] == "/me?saved=password")
            #expect(try await client.send(.get, "/v1/me", token: api).problemCode == "invalid_token")
            #expect(try await me.get("/me").status == .ok, "the browser's own session was revoked")
        }
    }

    @Test func favoritesReviewsAndInterestsWithAReset() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let review = try await world.review(5, "我的评价")["id"] as! String
            let me = try await WebWritingTests.signedIn(client, world.user.name)
            _ = try await me.post("/stores/\(world.storeID)/favorite")
            _ = try await me.get("/comments/\(review)")
            try await app.flushSignals()
            // MUT
            let page = try await me.get("/me").text
            // validate
            #expect(page.contains("href=\"/stores/\(world.storeID)\""))
            #expect(page.contains("我的评价"))
            #expect(page.contains("<td>火锅</td>"))
            #expect(page.contains("<td>1</td>"))
            let reset = try await me.post("/interests/reset", ["back": "/me"])
            #expect(reset.headers[.location] == "/me")
            #expect(!(try await me.get("/me").text.contains("<td>火锅</td>")))
            // a visitor resets from the home page
            let visitor = WebBrowser(client)
            _ = try await visitor.get("/comments/\(review)")
            try await app.flushSignals()
            #expect(try await visitor.get("/").text.contains("<li class=\"chip\">火锅</li>"))
            // an open still on its way when the reset comes is forgotten with the rest
            try await app.database.query("UPDATE viewer_opens SET opened_at = opened_at - interval '1 minute'")
            _ = try await visitor.get("/comments/\(review)")
            _ = try await visitor.post("/interests/reset", ["back": "/"])
            #expect(!(try await visitor.get("/").text.contains("<li class=\"chip\">")))
            try await app.flushSignals()
            #expect(!(try await visitor.get("/").text.contains("<li class=\"chip\">")))
        }
    }
}
