import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Every write that changes what matches is visible to the next search: the summaries move in the same
/// transaction as the review, store or category write.
@Suite struct SearchFreshnessTests {
    @Test func anEditedReviewStopsMatchingItsOldText() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            #expect(world.names(try await SearchClient.page(client, "毛肚")) == ["小龙坎火锅"])
            // MUT
            let edited = try await client.send(
                .patch, "/v1/comments/\(world.reviews["毛肚"]!)", body: ["body": "肥牛很新鲜，火锅底料香"],
                token: world.author("毛肚").token)
            // validate
            #expect(edited.status == .ok)
            #expect(try await SearchClient.page(client, "毛肚").items.isEmpty)
            #expect(try await SearchClient.page(client, "maodu").items.isEmpty)
            #expect(world.named(try await SearchClient.page(client, "肥牛")) == ["小龙坎火锅 [dish:肥牛:1]"])
            // Text the edit kept still counts once.
            #expect(world.named(try await SearchClient.page(client, "底料香")) == ["小龙坎火锅 [dish:底料香:1]"])
        }
    }

    @Test func aHiddenReviewStopsCounting() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            #expect(world.named(try await SearchClient.page(client, "鸭肠")) == ["小龙坎火锅 [dish:鸭肠:1]"])
            // MUT
            _ = try await CommentModeration.hide(id: world.reviews["鸭肠"]!, database: app.database)
            await app.settle()
            // validate
            #expect(try await SearchClient.page(client, "鸭肠").items.isEmpty)
            #expect(
                world.named(try await SearchClient.page(client, "火锅")).first
                    == "小龙坎火锅 [name:小龙坎火锅:null, category:火锅:null, dish:火锅:1]")
        }
    }

    @Test func aDeletedReviewStopsCountingAndADishDisappears() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            #expect(world.named(try await SearchClient.page(client, "羊肉串")) == ["老王烧烤 [dish:羊肉串:1]"])
            #expect(world.names(try await SearchClient.page(client, "yangrouchuan")) == ["老王烧烤"])
            // MUT
            let deleted = try await client.send(
                .delete, "/v1/comments/\(world.reviews["羊肉串"]!)", token: world.author("羊肉串").token)
            // validate
            #expect(deleted.status == .noContent)
            #expect(try await SearchClient.page(client, "羊肉串").items.isEmpty)
            #expect(try await SearchClient.page(client, "yangrouchuan").items.isEmpty)
            #expect(world.named(try await SearchClient.page(client, "100%")) == ["100%果汁 [name:100%果汁:null]"])
        }
    }

    @Test func archivingAndRestoringAStoreTakesItOutAndBack() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            #expect(world.names(try await SearchClient.page(client, "水煮鱼")) == ["小龙坎火锅", "鱼你在一起"])
            // MUT
            try await StoreAdmin(database: app.database).restoreStore(id: world.stores["江湖菜馆"]!)
            // A write beside the server (as `chidian store restore` makes) is seen once the server has applied its
            // invalidations: within 0.9 s anywhere, and here as soon as settled.
            await app.settle()
            // validate: its score 3.75 puts it first among equal counts.
            #expect(world.names(try await SearchClient.page(client, "水煮鱼")) == ["江湖菜馆", "小龙坎火锅", "鱼你在一起"])
            #expect(world.named(try await SearchClient.page(client, "江湖")) == ["江湖菜馆 [name:江湖菜馆:null]"])
            // Its review counts 鱼 once though it says it twice.
            #expect(world.named(try await SearchClient.page(client, "鱼")).contains("江湖菜馆 [dish:鱼:1]"))
            // MUT
            let archived = try await client.send(
                .delete, "/v1/stores/\(world.stores["小龙坎火锅"]!)", token: world.manager.token)
            // validate
            #expect(archived.status == .noContent)
            #expect(world.names(try await SearchClient.page(client, "水煮鱼")) == ["江湖菜馆", "鱼你在一起"])
            #expect(world.names(try await SearchClient.page(client, "huoguo")) == ["蜀大侠"])
        }
    }

    @Test func renamedStoresAndCategoriesMatchByTheirNewNames() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            let id = world.stores["蜀大侠"]!
            // MUT
            let renamed = try await client.send(
                .patch, "/v1/stores/\(id)", body: ["name": "巴蜀烤鸭"], token: world.manager.token)
            let category = try await StoreAdmin(database: app.database).listCategories().first { $0.name == "甜品" }!
            _ = try await StoreAdmin(database: app.database).renameCategory(id: category.id, to: "甜品饮品")
            await app.settle()
            // validate
            #expect(renamed.status == .ok)
            #expect(try await SearchClient.page(client, "蜀大侠").items.isEmpty)
            // (The world still labels the store by its first name.)
            #expect(world.named(try await SearchClient.page(client, "烤鸭")) == ["蜀大侠 [name:巴蜀烤鸭:null]"])
            #expect(world.named(try await SearchClient.page(client, "kaoya")) == ["蜀大侠 [name:巴蜀烤鸭:null]"])
            #expect(world.names(try await SearchClient.page(client, "饮品")) == ["100%果汁"])
            #expect(world.names(try await SearchClient.page(client, "yinpin")) == ["100%果汁"])
        }
    }

    @Test func aNewReviewCountsAtOnce() async throws {
        try await TestApp.run { client, app in
            // setup
            var world = try await SearchWorld.make(client, app)
            // MUT
            world.reviews["新"] = try await world.post(
                store: "老王烧烤", body: ["rating": 1, "body": "鱼有点腥，鱼皮还行"], as: world.other)
            // validate: 老王烧烤 now has 2 reviews with 鱼 and leads the review group.
            #expect(
                world.named(try await SearchClient.page(client, "鱼")) == [
                    "鱼你在一起 [name:鱼你在一起:null, dish:鱼:2]", "老王烧烤 [dish:鱼:2]", "小龙坎火锅 [dish:鱼:1]",
                ])
            #expect(world.named(try await SearchClient.page(client, "鱼皮")) == ["老王烧烤 [dish:鱼皮:1]"])
        }
    }
}
