import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The library functions behind `chidian category …` and `chidian store …`.
@Suite struct StoreAdminTests {
    @Test func categoriesAreAddedListedAndRenamed() async throws {
        try await TestApp.run { client, app in
            // setup
            let admin = StoreAdmin(database: app.database)
            // MUT
            let hotpot = try await admin.addCategory(name: "  火锅 ")
            let noodles = try await admin.addCategory(name: "Noodles")
            let renamed = try await admin.renameCategory(id: noodles.id, to: "Ramen")
            // validate
            #expect(hotpot.id.hasPrefix("c_"))
            #expect(hotpot.name == "火锅")
            #expect(renamed == CategoryView(id: noodles.id, name: "Ramen", storeCount: 0))
            #expect(
                try await admin.listCategories() == [renamed, CategoryView(id: hotpot.id, name: "火锅", storeCount: 0)])
            let api = try StoreFixture.items(try await client.send(.get, "/v1/categories"))
            #expect(api.map { $0["name"] as! String } == ["Ramen", "火锅"])
            // Renaming to its own name in another case is allowed.
            #expect(try await admin.renameCategory(id: noodles.id, to: "RAMEN").name == "RAMEN")
        }
    }

    @Test func categoryMistakesAreOneLineErrors() async throws {
        try await TestApp.run { _, app in
            let admin = StoreAdmin(database: app.database)
            _ = try await admin.addCategory(name: "Hotpot")
            let bbq = try await admin.addCategory(name: "BBQ")
            await #expect(throws: StoreError.categoryNameTaken("hotpot")) {
                try await admin.addCategory(name: "hotpot")
            }
            await #expect(throws: StoreError.invalidCategoryName("The category name must not be blank.")) {
                try await admin.addCategory(name: "  ")
            }
            await #expect(throws: StoreError.invalidCategoryName("The category name must be at most 32 characters.")) {
                try await admin.addCategory(name: String(repeating: "x", count: 33))
            }
            await #expect(throws: StoreError.categoryNotFound(id: "c_nope")) {
                try await admin.renameCategory(id: "c_nope", to: "X")
            }
            await #expect(throws: StoreError.categoryNameTaken("HOTPOT")) {
                try await admin.renameCategory(id: bbq.id, to: "HOTPOT")
            }
            #expect(try await admin.listCategories().map(\.name) == ["BBQ", "Hotpot"])
        }
    }

    @Test func storesAreListedArchivedAndRestored() async throws {
        try await TestApp.run { client, app in
            // setup
            let admin = StoreAdmin(database: app.database)
            let manager = try await client.register("Boss", role: "manager")
            let critic = try await client.register("Critic")
            let category = try await StoreFixture.category(app, "火锅")
            let first =
                try await StoreFixture.store(client, manager, name: "First", categoryID: category).id
            let second =
                try await StoreFixture.store(client, manager, name: "Second", categoryID: category).id
            try await StoreFixture.review(app, storeID: first, authorID: critic.id, ratings: [4, 5])
            _ = try await client.send(
                .post, "/v1/stores/\(first)/promotions", body: ["amount": 42], token: manager.token)
            // MUT
            #expect(try await admin.archiveStore(id: second))
            #expect(try await admin.archiveStore(id: second) == false, "archiving twice changes nothing")
            await app.settle()
            let listed = try await admin.listStores()
            // validate
            #expect(
                listed == [
                    .init(
                        id: first, name: "First", category: "火锅", manager: "Boss", ratingAverage: 4.5, ratingCount: 2,
                        adSpend: 42, archived: false),
                    .init(
                        id: second, name: "Second", category: "火锅", manager: "Boss", ratingAverage: nil, ratingCount: 0,
                        adSpend: 0, archived: true),
                ])
            #expect(try await client.send(.get, "/v1/stores/\(second)").status == .notFound)
            #expect(try await admin.restoreStore(id: second))
            #expect(try await admin.restoreStore(id: second) == false)
            await app.settle()
            #expect(try await client.send(.get, "/v1/stores/\(second)").status == .ok)
            await #expect(throws: StoreError.notFound(id: "s_nope")) { try await admin.archiveStore(id: "s_nope") }
            await #expect(throws: StoreError.notFound(id: "s_nope")) { try await admin.restoreStore(id: "s_nope") }
        }
    }

    @Test func theCommandsPrintAndFailInOneLine() async throws {
        try await TestApp.run { _, app in
            // MUT
            let added = try await ChidianBinary.run(["category", "add", "Dim sum"], databaseURL: app.url)
            let again = try await ChidianBinary.run(["category", "add", "DIM SUM"], databaseURL: app.url)
            let list = try await ChidianBinary.run(["category", "list"], databaseURL: app.url)
            let archive = try await ChidianBinary.run(["store", "archive", "s_nope"], databaseURL: app.url)
            let stores = try await ChidianBinary.run(["store", "list"], databaseURL: app.url)
            // validate
            #expect(added.status == 0, "\(added.stderr)")
            let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(id.hasPrefix("c_"))
            #expect(again.status != 0)
            #expect(again.stderr.contains("A category named DIM SUM already exists."))
            #expect(list.stdout == "id\tname\tstores\n\(id)\tDim sum\t0\n")
            #expect(archive.status != 0)
            #expect(archive.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1)
            #expect(archive.stderr.contains("No store s_nope."))
            #expect(stores.status == 0)
            #expect(stores.stdout == "id\tname\tcategory\tmanager\trating\tadSpend\tarchived\n")
        }
    }
}
