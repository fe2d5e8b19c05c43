import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The repository's hand-made demo set, `seed/`, read with the importer's own types.
struct DemoSeed {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("seed")

    let users: [SeedFormat.User]
    let stores: [SeedFormat.Store]
    let comments: [SeedFormat.Comment]

    init() throws {
        let decoder = SeedFormat.decoder()
        func file(_ name: String) throws -> Data { try Data(contentsOf: Self.directory.appendingPathComponent(name)) }
        users = try decoder.decode([SeedFormat.User].self, from: try file(SeedFormat.usersFile))
        stores = try decoder.decode([SeedFormat.Store].self, from: try file(SeedFormat.storesFile))
        comments = try decoder.decode([SeedFormat.Comment].self, from: try file(SeedFormat.commentsFile))
    }

    func user(named name: String) -> SeedFormat.User? { users.first { $0.name == name } }
}

@Suite struct DemoSeedTests {
    @Test func hasTheDemoAccountsWithTheirPasswords() async throws {
        let seed = try DemoSeed()
        #expect(seed.users.count == 40)
        let user1 = try #require(seed.user(named: "User1"))
        let manager4 = try #require(seed.user(named: "Manager4"))
        let admin = try #require(seed.user(named: "Admin"))
        #expect(user1.type == "user" && manager4.type == "manager" && admin.type == "admin")
        #expect(seed.users.filter { $0.type == "admin" }.count == 1)
        #expect(seed.stores.filter { $0.manager == manager4.id }.count >= 3, "Manager4 owns several stores")
        // Hashes, not plain text, and of the passwords seed/README.md gives.
        #expect(seed.users.allSatisfy { $0.keyword.hasPrefix("$2b$10$") })
        let passwords = Passwords(cost: 4)
        #expect(try await passwords.verify("111", hash: user1.keyword))
        #expect(try await passwords.verify("111", hash: manager4.keyword))
        #expect(try await passwords.verify("chidian-admin", hash: admin.keyword))
        let readme = try String(contentsOf: DemoSeed.directory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("chidian-admin") && readme.contains("`111`"))
    }

    @Test func idsAreUniqueAndEveryReferenceResolves() throws {
        let seed = try DemoSeed()
        #expect(Set(seed.users.map(\.id)).count == seed.users.count)
        #expect(Set(seed.stores.map(\.id)).count == seed.stores.count)
        #expect(Set(seed.comments.map(\.id)).count == seed.comments.count)
        #expect(Set(seed.users.map { $0.name.lowercased() }).count == seed.users.count)
        for user in seed.users { #expect(try AccountRules.validName(user.name) == user.name) }
        let typeOf = Dictionary(uniqueKeysWithValues: seed.users.map { ($0.id, $0.type) })
        let storeByID = Dictionary(uniqueKeysWithValues: seed.stores.map { ($0.id, $0) })
        for store in seed.stores {
            #expect(typeOf[store.manager] == "manager", "\(store.id)")
            #expect(store.staredUserId.allSatisfy { typeOf[$0] != nil }, "\(store.id)")
        }
        var reviews = 0
        var notices = 0
        for comment in seed.comments {
            let store = try #require(storeByID[comment.store_id])
            let type = try #require(typeOf[comment.user_id])
            if comment.user_id == store.manager {
                notices += 1
            } else {
                reviews += 1
                #expect(type == "user", "\(comment.id) is a review by a \(type)")
                #expect((1...5).contains(comment.rating), "\(comment.id)")
            }
            #expect(try CommentRules.validBody(comment.context) == comment.context)
        }
        #expect(reviews == 300)
        #expect(notices >= 5)
    }

    @Test func readsLikeRealData() throws {
        let seed = try DemoSeed()
        #expect(seed.stores.count >= 30)
        let categories = Set(seed.stores.map(\.category))
        #expect(categories.count >= 8)
        #expect(categories.isSubset(of: Set(DishCatalog.categories)))
        for store in seed.stores {
            #expect(try StoreRules.validName(store.name) == store.name)
            #expect(!(store.description ?? "").isEmpty && !(store.address ?? "").isEmpty, "\(store.id)")
            #expect((1...3).contains(store.imageName.count), "\(store.id)")
        }
        // Ad spend on about a third of the stores, all different so the daily promotions have an order.
        let spends = seed.stores.map(\.sumCost).filter { $0 > 0 }
        #expect((10...14).contains(spends.count))
        #expect(Set(spends).count == spends.count)
        #expect(seed.stores.filter { !$0.staredUserId.isEmpty }.count >= 20)
        // Reviews name the dishes a search should find, vary, and a few mix in English.
        let managers = Set(seed.stores.map(\.manager))
        let reviews = seed.comments.filter { !managers.contains($0.user_id) }
        for review in reviews {
            #expect(DishCatalog.names.contains { review.context.contains($0) }, "\(review.id): \(review.context)")
        }
        #expect(Set(reviews.map(\.context)).count == reviews.count)
        let english = reviews.filter { $0.context.range(of: "[A-Z][a-z]+ ", options: .regularExpression) != nil }
        #expect((3...30).contains(english.count))
        #expect(Set(reviews.map(\.rating)) == [1, 2, 3, 4, 5])
        #expect(reviews.contains { !$0.commentImageName.isEmpty })
    }

    @Test func everyImageExistsIsAPNGAndTheFolderIsSmall() throws {
        let seed = try DemoSeed()
        let images = DemoSeed.directory.appendingPathComponent(SeedFormat.imagesFolder)
        let files = try FileManager.default.contentsOfDirectory(atPath: images.path)
        let referenced = seed.stores.flatMap(\.imageName) + seed.comments.flatMap(\.commentImageName)
        #expect(Set(referenced).count == referenced.count)
        #expect(Set(files) == Set(referenced.map { $0 + ".png" }), "unreferenced or missing images")
        var total = 0
        for name in files {
            let data = try Data(contentsOf: images.appendingPathComponent(name))
            total += data.count
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name)")
        }
        #expect(total < 200 * 1024)
    }
}
