import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A generated seed directory, read back with the importer's own types.
struct GeneratedSeed {
    let directory: URL
    let summary: Generator.Summary
    let users: [SeedFormat.User]
    let stores: [SeedFormat.Store]
    let comments: [SeedFormat.Comment]

    static func make(stores: Int = 150, users: Int = 400, comments: Int = 4000, seed: UInt64 = 7) throws
        -> GeneratedSeed
    {
        let directory = temporaryDirectory()
        let summary = try Generator.write(to: directory, stores: stores, users: users, comments: comments, seed: seed)
        let decoder = SeedFormat.decoder()
        return GeneratedSeed(
            directory: directory, summary: summary,
            users: try decoder.decode([SeedFormat.User].self, from: try file(directory, SeedFormat.usersFile)),
            stores: try decoder.decode([SeedFormat.Store].self, from: try file(directory, SeedFormat.storesFile)),
            comments: try decoder.decode([SeedFormat.Comment].self, from: try file(directory, SeedFormat.commentsFile)))
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("chidian-generate-\(UUID().uuidString)")
    }

    static func file(_ directory: URL, _ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    var reviews: [SeedFormat.Comment] {
        let managerOf = Dictionary(uniqueKeysWithValues: stores.map { ($0.id, $0.manager) })
        return comments.filter { managerOf[$0.store_id] != $0.user_id }
    }
}

@Suite struct GeneratorTests {
    @Test func sameArgumentsGiveTheSameBytesAndAnotherSeedDiffers() throws {
        // setup
        let first = GeneratedSeed.temporaryDirectory()
        let second = GeneratedSeed.temporaryDirectory()
        let other = GeneratedSeed.temporaryDirectory()
        defer { for url in [first, second, other] { try? FileManager.default.removeItem(at: url) } }
        // MUT
        try Generator.write(to: first, stores: 120, users: 300, comments: 2500, seed: 42)
        try Generator.write(to: second, stores: 120, users: 300, comments: 2500, seed: 42)
        try Generator.write(to: other, stores: 120, users: 300, comments: 2500, seed: 43)
        // validate
        for name in [SeedFormat.usersFile, SeedFormat.storesFile, SeedFormat.commentsFile] {
            let a = try GeneratedSeed.file(first, name)
            #expect(a.count > 100)
            #expect(a == (try GeneratedSeed.file(second, name)), "\(name) differs between identical runs")
            #expect(a != (try GeneratedSeed.file(other, name)), "\(name) ignores the seed")
        }
    }

    @Test func usersDoNotChangeWhenOnlyTheCommentCountDoes() throws {
        let small = GeneratedSeed.temporaryDirectory()
        let large = GeneratedSeed.temporaryDirectory()
        defer { for url in [small, large] { try? FileManager.default.removeItem(at: url) } }
        try Generator.write(to: small, stores: 50, users: 100, comments: 10, seed: 5)
        try Generator.write(to: large, stores: 50, users: 100, comments: 900, seed: 5)
        #expect(try GeneratedSeed.file(small, SeedFormat.usersFile) == GeneratedSeed.file(large, SeedFormat.usersFile))
        #expect(
            try GeneratedSeed.file(small, SeedFormat.storesFile) == GeneratedSeed.file(large, SeedFormat.storesFile))
    }

    @Test func filesDecodeAsTheSeedFormatWithTheAskedCounts() throws {
        let seed = try GeneratedSeed.make()
        defer { seed.remove() }
        #expect(seed.users.count == 400)
        #expect(seed.stores.count == 150)
        #expect(seed.comments.count == 4000)
        #expect(seed.summary.users == 400 && seed.summary.stores == 150)
        #expect(seed.summary.reviews + seed.summary.notices == 4000)
        #expect(Set(seed.users.map(\.id)).count == 400)
        #expect(Set(seed.stores.map(\.id)).count == 150)
        #expect(Set(seed.comments.map(\.id)).count == 4000)
        #expect(seed.users.first?.id == "u000001" && seed.stores.first?.id == "s000001")
        #expect(seed.comments.first?.id == "c0000001")
        // No images in generated data.
        #expect(seed.stores.allSatisfy { $0.imageName.isEmpty })
        #expect(seed.comments.allSatisfy { $0.commentImageName.isEmpty })
        #expect(!FileManager.default.fileExists(atPath: seed.directory.appendingPathComponent("images").path))
    }

    @Test func everyReferenceResolvesToTheRightKindOfUser() throws {
        let seed = try GeneratedSeed.make()
        defer { seed.remove() }
        let typeOf = Dictionary(uniqueKeysWithValues: seed.users.map { ($0.id, $0.type) })
        let storeByID = Dictionary(uniqueKeysWithValues: seed.stores.map { ($0.id, $0) })
        for store in seed.stores {
            #expect(typeOf[store.manager] == "manager", "store \(store.id) has manager \(store.manager)")
            #expect(store.staredUserId.allSatisfy { typeOf[$0] == "user" }, "store \(store.id) favorites")
            #expect(Set(store.staredUserId).count == store.staredUserId.count)
        }
        var notices = 0
        for comment in seed.comments {
            let store = try #require(storeByID[comment.store_id], "comment \(comment.id) names a missing store")
            let type = try #require(typeOf[comment.user_id], "comment \(comment.id) names a missing user")
            if comment.user_id == store.manager {
                notices += 1
            } else {
                // A review: by a plain user, rated 1–5.
                #expect(type == "user", "comment \(comment.id) is by a \(type)")
                #expect((1...5).contains(comment.rating), "comment \(comment.id) rating \(comment.rating)")
            }
        }
        // About 3% notices, by the store's own manager (checked above by construction).
        #expect(notices == seed.summary.notices)
        #expect((40...200).contains(notices), "\(notices) notices of 4000")
    }

    @Test func usersHaveOneAdminAboutFivePercentManagersAndValidUniqueNames() throws {
        let seed = try GeneratedSeed.make(stores: 100, users: 2000, comments: 10)
        defer { seed.remove() }
        let types = Dictionary(grouping: seed.users, by: \.type).mapValues(\.count)
        #expect(types["admin"] == 1)
        #expect(types["manager"] == 100)
        #expect(types["user"] == 1899)
        #expect(Set(types.keys) == ["admin", "manager", "user"])
        let lowered = seed.users.map { $0.name.lowercased() }
        #expect(Set(lowered).count == seed.users.count, "names clash ignoring case")
        for user in seed.users {
            // The registration rules: trimmed, 1–32 characters, no control characters.
            #expect(try AccountRules.validName(user.name) == user.name, "\(user.name)")
            #expect(user.keyword == Generator.passwordHash)
        }
        // Chinese and pinyin/English nicknames both appear.
        #expect(seed.users.contains { $0.name.unicodeScalars.contains { $0.value >= 0x4E00 } })
        #expect(seed.users.filter { $0.name.unicodeScalars.allSatisfy(\.isASCII) }.count > 200)
    }

    @Test func theKeywordIsABcryptHashOfTheBenchPassword() async throws {
        #expect(Generator.passwordHash.hasPrefix("$2"))
        #expect(try await Passwords(cost: 4).verify(Generator.password, hash: Generator.passwordHash))
        #expect(try await Passwords(cost: 4).verify("chidian", hash: Generator.passwordHash) == false)
    }

    @Test func reviewsAreRealisticText() throws {
        let seed = try GeneratedSeed.make(stores: 200, users: 500, comments: 4000, seed: 11)
        defer { seed.remove() }
        let reviews = seed.reviews
        let dishNames = DishCatalog.names
        let categoryOf = Dictionary(uniqueKeysWithValues: seed.stores.map { ($0.id, $0.category) })
        let dishesOf = Dictionary(
            uniqueKeysWithValues: DishCatalog.categories.map { ($0, DishCatalog.dishes(in: $0).map(\.name)) })
        var ownCategory = 0
        for review in reviews {
            #expect((20...120).contains(review.context.count), "\(review.id): \(review.context)")
            #expect(dishNames.contains { review.context.contains($0) }, "\(review.id) names no dish: \(review.context)")
            if dishesOf[categoryOf[review.store_id]!]!.contains(where: { review.context.contains($0) }) {
                ownCategory += 1
            }
            #expect(!review.context.unicodeScalars.contains { $0.properties.generalCategory == .control })
        }
        // Most reviews name a dish of the store's own category.
        #expect(Double(ownCategory) / Double(reviews.count) > 0.75)
        // Some English, about 7%.
        let english = reviews.filter { $0.context.range(of: "[A-Za-z]{3,}", options: .regularExpression) != nil }.count
        #expect((0.04...0.11).contains(Double(english) / Double(reviews.count)), "\(english) of \(reviews.count)")
        // Ratings skew positive: fours and fives outnumber the rest, yet every rating occurs.
        let ratings = Dictionary(grouping: reviews, by: \.rating).mapValues(\.count)
        #expect(Set(ratings.keys) == [1, 2, 3, 4, 5])
        #expect(ratings[5]! > ratings[3]! && ratings[4]! > ratings[2]! && ratings[3]! > ratings[1]!)
        let mean = Double(reviews.map(\.rating).reduce(0, +)) / Double(reviews.count)
        #expect((3.6...4.3).contains(mean), "mean rating \(mean)")
        // Texts vary.
        #expect(Set(reviews.map(\.context)).count > reviews.count * 8 / 10)
        #expect(seed.comments.filter { $0.context.count > 60 }.count > 100)
    }

    @Test func storesAreValidForTheAPIAndSpreadOverCategories() throws {
        let seed = try GeneratedSeed.make(stores: 600, users: 1000, comments: 0, seed: 3)
        defer { seed.remove() }
        let categories = Set(seed.stores.map(\.category))
        #expect(categories.count >= 12)
        #expect(categories.isSubset(of: Set(DishCatalog.categories)))
        for store in seed.stores {
            #expect(try StoreRules.validName(store.name) == store.name)
            let description = try #require(store.description)
            let address = try #require(store.address)
            #expect(try StoreRules.validDescription(description) == description)
            #expect(try StoreRules.validAddress(address) == address)
            #expect(address.contains("市") && address.contains("号"), "\(address)")
            #expect(description.contains("人均"))
            #expect(store.sumCost >= 0)
        }
        // Chains: some names repeat as branches ("…·朝阳店").
        #expect(seed.stores.filter { $0.name.contains("·") && $0.name.hasSuffix("店") }.count > 30)
        // About one store in ten promoted, and about one in ten favorited.
        let promoted = seed.stores.filter { $0.sumCost > 0 }.count
        let favorited = seed.stores.filter { !$0.staredUserId.isEmpty }.count
        #expect((30...100).contains(promoted), "\(promoted) promoted")
        #expect((30...100).contains(favorited), "\(favorited) favorited")
        #expect(seed.summary.promotedStores == promoted)
        #expect(seed.summary.favorites == seed.stores.map(\.staredUserId.count).reduce(0, +))
    }

    @Test func createsAMissingDirectoryAndRefusesANonEmptyOne() throws {
        let parent = GeneratedSeed.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let nested = parent.appendingPathComponent("a/b")
        // MUT: a missing nested directory is created.
        try Generator.write(to: nested, stores: 2, users: 5, comments: 3)
        #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("comment.json").path))
        // MUT: written once, it is no longer empty.
        let error = #expect(throws: GeneratorError.self) {
            try Generator.write(to: nested, stores: 2, users: 5, comments: 3)
        }
        #expect(error?.description.contains("not empty") == true)
        #expect(error?.description.contains("\n") == false)
        // A file where the directory should be.
        let file = parent.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(throws: GeneratorError.self) { try Generator.write(to: file, stores: 0, users: 1, comments: 0) }
        // An empty existing directory is fine.
        let empty = parent.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Generator.write(to: empty, stores: 0, users: 1, comments: 0)
        let users = try SeedFormat.decoder().decode(
            [SeedFormat.User].self, from: try GeneratedSeed.file(empty, SeedFormat.usersFile))
        #expect(users.map(\.type) == ["admin"])
        #expect(
            try SeedFormat.decoder().decode(
                [SeedFormat.Store].self, from: try GeneratedSeed.file(empty, SeedFormat.storesFile)
            ).isEmpty)
    }

    @Test func refusesCountsThatCannotMakeAConsistentSeed() throws {
        let directory = GeneratedSeed.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (stores, users, comments) in [
            (-1, 5, 0), (0, 0, 0), (1, 1, 0), (0, 5, 1), (1, 2, 1), (1, 5, Generator.maxCount + 1),
        ] {
            #expect(throws: GeneratorError.self, "\(stores) \(users) \(comments)") {
                try Generator.write(to: directory, stores: stores, users: users, comments: comments)
            }
        }
        // Nothing was created for a refused run.
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        // The smallest consistent set: an admin, a manager, a reviewer.
        let seed = try GeneratedSeed.make(stores: 1, users: 3, comments: 40)
        defer { seed.remove() }
        #expect(seed.users.map(\.type) == ["admin", "manager", "user"])
        #expect(seed.comments.allSatisfy { $0.user_id == "u000002" || $0.user_id == "u000003" })
    }

    @Test func jsonEscapingRoundTrips() throws {
        let tricky = "引号\"反斜杠\\换行\n制表\t响铃\u{7}NUL\u{0}表情🍜 é"
        var bytes: [UInt8] = Array("[\"".utf8)
        JSONText.appendEscaped(tricky, to: &bytes)
        bytes += Array("\"]".utf8)
        #expect(try JSONDecoder().decode([String].self, from: Data(bytes)) == [tricky])
        #expect(TextPiece("火锅🍲").length == 3)
    }
}
