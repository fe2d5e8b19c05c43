import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Issue 30 on the web: 猜你喜欢 on the home page, 看过这家的人还看了 on a store page, fed by what browsers open.
@Suite struct WebRecommendTests {
    @Test func storePagesListWhatTheirViewersAlsoOpenedAndHomeGuesses() async throws {
        try await TestApp.run { client, app in
            // setup: two stores; two browsers open both store pages
            let world = try await FeedWorld.make(app, client)
            let first = try await RecommendationTests.storeID(app, "火锅0")
            let second = try await RecommendationTests.storeID(app, "甜品1")
            let untouched = WebBrowser(client)
            let before = try await untouched.get("/stores/\(first)").text
            #expect(!before.contains("看过这家的人还看了"))
            for _ in 0..<2 {
                let browser = WebBrowser(client)
                // MUT
                #expect(try await browser.get("/stores/\(first)").status == .ok)
                #expect(try await browser.get("/stores/\(second)").status == .ok)
            }
            try await app.flushSignals()
            // validate: the other store is named in the section, the page's own store is not
            let page = try await untouched.get("/stores/\(first)").text
            let section = try #require(page.firstRange(of: "id=\"also-viewed\"")).lowerBound
            let tail = page[section...]
            #expect(tail.contains("甜品1"))
            #expect(!tail.contains("/stores/\(first)\""))
            let home = try await untouched.get("/").text
            #expect(home.contains("猜你喜欢"))
            _ = world
        }
    }
}
