import Foundation
import Testing

@testable import ChidianClient

/// 收藏: favoriting from a store page and the favorites list.
@Suite(Demo.needsServer) struct FavoritesScreenTests {
    @Test func favoriteAndUnfavoriteStores() async throws {
        let client = try Demo.client()
        try await client.register(name: Demo.uniqueName("fan"), password: "a long password")
        let before = try await client.store("s003")
        // MUT
        try await client.setFavorite(true, store: "s003")
        try await client.setFavorite(true, store: "s005")
        try await client.setFavorite(true, store: "s003")
        // validate: idempotent; most recently favorited first
        #expect(try await client.favorites().reduce(into: [String]()) { $0.append($1.id) } == ["s005", "s003"])
        let after = try await client.store("s003")
        #expect(after.favorited && after.favoriteCount == before.favoriteCount + 1)
        // MUT
        try await client.setFavorite(false, store: "s003")
        // validate
        #expect(try await client.favorites(pageSize: 1).reduce(into: [String]()) { $0.append($1.id) } == ["s005"])
        #expect(try await client.store("s003").favorited == false)
        let missing = try await Demo.refusal { try await client.setFavorite(true, store: "s_no_such_store") }
        #expect(missing.code == .storeNotFound)
    }
}
