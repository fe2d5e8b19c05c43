import ChidianCore
import Foundation

/// One `Generator.write`: users, then stores, then comments, each written as it is drawn. What later files need
/// from earlier ones (who the managers and reviewers are; each store's category, manager and quality) is kept
/// in small integer arrays.
struct GeneratorRun {
    let storeCount: Int
    let userCount: Int
    let commentCount: Int
    let seed: UInt64
    let progress: ((Generator.Progress) -> Void)?
    private(set) var summary = Generator.Summary()

    /// Ids are zero-padded to a fixed width so they sort as numbers: u000001, s000001, c0000001.
    private let userWidth: Int
    private let storeWidth: Int
    private let commentWidth: Int

    /// Manager user indices.
    private var managers: [Int32] = []
    /// Indices of users of type user, shuffled; reviews and favorites lean to the front.
    private var reviewers: [Int32] = []
    private var storeCategory: [UInt8] = []
    private var storeManager: [Int32] = []
    private var storeQuality: [UInt8] = []
    /// Store indices, shuffled; comments lean to the front, so a few stores are busy and most are quiet.
    private var storeOrder: [Int32] = []

    private static let progressStep = 10_000
    /// 2025-01-01T00:00:00Z: generated data never depends on today's date.
    static let epoch = 1_735_689_600

    init(
        storeCount: Int, userCount: Int, commentCount: Int, seed: UInt64, progress: ((Generator.Progress) -> Void)?
    ) {
        self.storeCount = storeCount
        self.userCount = userCount
        self.commentCount = commentCount
        self.seed = seed
        self.progress = progress
        userWidth = max(6, String(userCount).count)
        storeWidth = max(6, String(storeCount).count)
        commentWidth = max(7, String(commentCount).count)
    }

    // MARK: - userInfo.json

    /// User 1 is the only admin; about one in twenty of the rest, evenly spread, are managers.
    mutating func writeUsers(to url: URL) throws {
        var rng = SeededRandom(seed: seed, stream: 1)
        var writer = try JSONTextWriter(url: url)
        let hash = JSONTextWriter.escape(Generator.passwordHash)

        var managerCount = 0
        if storeCount > 0 {
            let spare = userCount - 1 - (commentCount > 0 ? 1 : 0)
            managerCount = min(max(1, Int((Double(userCount) * 0.05).rounded())), spare)
        }
        var nextManager = 0
        func managerPosition(_ k: Int) -> Int { 1 + k * (userCount - 1) / max(managerCount, 1) }

        var taken = Set<String>()
        taken.reserveCapacity(userCount)
        writer.raw("[\n")
        for index in 0..<userCount {
            let type: StaticString
            let name: String
            if index == 0 {
                type = "admin"
                name = "admin"
                taken.insert(name)
            } else {
                if nextManager < managerCount, index == managerPosition(nextManager) {
                    type = "manager"
                    managers.append(Int32(index))
                    nextManager += 1
                } else {
                    type = "user"
                    reviewers.append(Int32(index))
                }
                name = Self.uniqueName(index: index, taken: &taken, rng: &rng)
            }
            if index > 0 { writer.raw(",\n") }
            writer.raw("{\"id\":")
            writer.id(UInt8(ascii: "u"), index + 1, width: userWidth)
            writer.raw(",\"name\":")
            writer.string(name)
            writer.raw(",\"keyword\":")
            writer.quoted(hash)
            writer.raw(",\"type\":\"")
            writer.raw(type)
            writer.raw("\"}")
            try writer.flushIfFull()
            report(SeedFormat.usersFile, index + 1, userCount)
        }
        writer.raw(userCount == 0 ? "]\n" : "\n]\n")
        try writer.close()
        rng.shuffle(&reviewers)
        summary.users = userCount
        summary.managers = managers.count
        summary.bytes += writer.bytesWritten
        progress?(Generator.Progress(file: SeedFormat.usersFile, done: userCount, total: userCount))
    }

    /// A nickname not yet taken ignoring case; a clash gets digits, more of them each time it clashes again.
    private static func uniqueName(index: Int, taken: inout Set<String>, rng: inout SeededRandom) -> String {
        let base = GeneratedNames.nickname(&rng)
        var name = base
        var limit = 10
        var attempts = 0
        while !taken.insert(name.lowercased()).inserted {
            attempts += 1
            // "_" + the row number is unique by construction; the digits before it only look nicer.
            name = attempts > 6 ? base + "_" + String(index) : base + String(rng.between(2, limit))
            limit = min(limit * 10, 1_000_000)
        }
        return name
    }

    // MARK: - store.json

    private struct Chain {
        let name: String
        let category: Int
        let manager: Int32
        let city: Int
    }

    /// Relative weights of the categories (as in `DishCatalog.categories`): hot pot and snacks are everywhere,
    /// Yunnan food less so.
    private static let categoryWeights = [9, 9, 6, 6, 5, 4, 5, 3, 3, 10, 8, 5, 4, 3, 5, 7, 6, 4]

    /// Cumulative percentages of ratings 1…5 by store quality: excellent, good, average, poor.
    private static let ratingTables: [[Int]] = [
        [2, 4, 10, 35, 100], [4, 9, 22, 60, 100], [8, 20, 50, 82, 100], [25, 50, 75, 90, 100],
    ]

    mutating func writeStores(to url: URL) throws {
        var rng = SeededRandom(seed: seed, stream: 2)
        var writer = try JSONTextWriter(url: url)
        let styles = StoreVocabulary.styles
        let cities = StoreVocabulary.cities
        let categoryNames = styles.map { JSONTextWriter.escape($0.category) }
        let dishNames = styles.map { style in
            DishCatalog.dishes(in: style.category).filter { !$0.isEnglish }.map(\.name)
        }
        let totalWeight = Self.categoryWeights.reduce(0, +)
        var chains: [Chain] = []
        var places = SeededRandom(seed: seed, stream: 4)

        storeCategory.reserveCapacity(storeCount)
        storeManager.reserveCapacity(storeCount)
        storeQuality.reserveCapacity(storeCount)
        writer.raw("[\n")
        for index in 0..<storeCount {
            let name: String
            let category: Int
            let manager: Int32
            let city: Int
            let district: Int
            if !chains.isEmpty, rng.chance(0.25) {
                // Another branch of a chain: same brand, manager, category and city, its own district.
                let chain = chains[rng.below(chains.count)]
                category = chain.category
                manager = chain.manager
                city = chain.city
                district = rng.below(cities[city].districts.count)
                name = GeneratedNames.branch(of: chain.name, district: cities[city].districts[district].short)
            } else {
                category = Self.weightedCategory(total: totalWeight, rng: &rng)
                manager = managers[rng.below(managers.count)]
                city = rng.below(cities.count)
                district = rng.below(cities[city].districts.count)
                name = GeneratedNames.brand(styles[category], &rng)
                if rng.chance(0.3), chains.count < 4096 {
                    chains.append(Chain(name: name, category: category, manager: manager, city: city))
                }
            }
            try writeStore(
                index: index, name: name, category: category, manager: manager, city: city, district: district,
                writer: &writer, rng: &rng, places: &places, categoryName: categoryNames[category],
                dishes: dishNames[category])
            writer.raw("}")
            try writer.flushIfFull()
            report(SeedFormat.storesFile, index + 1, storeCount)
        }
        writer.raw(storeCount == 0 ? "]\n" : "\n]\n")
        try writer.close()
        storeOrder = (0..<storeCount).map { Int32($0) }
        rng.shuffle(&storeOrder)
        summary.stores = storeCount
        summary.bytes += writer.bytesWritten
        progress?(Generator.Progress(file: SeedFormat.storesFile, done: storeCount, total: storeCount))
    }

    private mutating func writeStore(
        index: Int, name: String, category: Int, manager: Int32, city: Int, district: Int,
        writer: inout JSONTextWriter, rng: inout SeededRandom, places: inout SeededRandom, categoryName: [UInt8],
        dishes: [String]
    ) throws {
        let style = StoreVocabulary.styles[category]
        let quality = Self.quality(&rng)
        let description = GeneratedNames.description(style, dishes: dishes, &rng)
        let address = GeneratedNames.address(city: StoreVocabulary.cities[city], district: district, &rng)
        // About one store in ten has bought promotion and one in ten has been favorited.
        let adSpend = rng.chance(0.1) ? rng.between(1, 500) * 100 : 0
        var fans: [Int32] = []
        if !reviewers.isEmpty, rng.chance(0.1) {
            let wanted = 1 + rng.skewed(min(40, reviewers.count), power: 2)
            var tries = 0
            while fans.count < wanted, tries < wanted * 4 {
                let fan = reviewers[rng.skewed(reviewers.count, power: 2)]
                if !fans.contains(fan) { fans.append(fan) }
                tries += 1
            }
        }

        storeCategory.append(UInt8(category))
        storeManager.append(manager)
        storeQuality.append(quality)
        if adSpend > 0 { summary.promotedStores += 1 }
        summary.favorites += fans.count

        if index > 0 { writer.raw(",\n") }
        writer.raw("{\"id\":")
        writer.id(UInt8(ascii: "s"), index + 1, width: storeWidth)
        writer.raw(",\"name\":")
        writer.string(name)
        writer.raw(",\"imageName\":[],\"category\":")
        writer.quoted(categoryName)
        writer.raw(",\"manager\":")
        writer.id(UInt8(ascii: "u"), Int(manager) + 1, width: userWidth)
        writer.raw(",\"sumCost\":")
        writer.int(adSpend)
        writer.raw(",\"staredUserId\":[")
        for (n, fan) in fans.enumerated() {
            if n > 0 { writer.raw(",") }
            writer.id(UInt8(ascii: "u"), Int(fan) + 1, width: userWidth)
        }
        writer.raw("],\"description\":")
        writer.string(description)
        writer.raw(",\"address\":")
        writer.string(address)
        writer.raw(",\"createdAt\":")
        writer.timestamp(Self.epoch - 30 * 86_400 + index * max(1, 30 * 86_400 / max(storeCount, 1)))
        writer.raw(",")
        // The hours the description states (营业时间 …), every day; the caller closes the object.
        GeneratedPlaces.write(
            city: StoreVocabulary.cities[city].name, description: description, to: &writer, rng: &places)
    }

    private static func weightedCategory(total: Int, rng: inout SeededRandom) -> Int {
        var r = rng.below(total)
        for (index, weight) in categoryWeights.enumerated() {
            if r < weight { return index }
            r -= weight
        }
        return categoryWeights.count - 1
    }

    /// Excellent one in four, good nearly half, average one in five, poor one in ten.
    private static func quality(_ rng: inout SeededRandom) -> UInt8 {
        let r = rng.below(100)
        return r < 25 ? 0 : r < 70 ? 1 : r < 90 ? 2 : 3
    }

    // MARK: - comment.json

    /// About 3% notices by the store's manager; the rest reviews by users, rated by the store's quality,
    /// about 7% with some English.
    mutating func writeComments(to url: URL) throws {
        var rng = SeededRandom(seed: seed, stream: 3)
        var writer = try JSONTextWriter(url: url)
        var text = GeneratedText()

        writer.raw("[\n")
        for index in 0..<commentCount {
            let store = Int(storeOrder[rng.skewed(storeCount, power: 2)])
            let category = Int(storeCategory[store])
            let author: Int32
            let rating: Int
            if rng.chance(0.03) {
                author = storeManager[store]
                rating = 0
                text.notice(category: category, rng: &rng)
                summary.notices += 1
            } else {
                author = reviewers[rng.skewed(reviewers.count, power: 2)]
                rating = Self.rating(quality: storeQuality[store], rng: &rng)
                text.review(category: category, rating: rating, mixEnglish: rng.chance(0.07), rng: &rng)
                summary.reviews += 1
            }
            if index > 0 { writer.raw(",\n") }
            writer.raw("{\"id\":")
            writer.id(UInt8(ascii: "c"), index + 1, width: commentWidth)
            writer.raw(",\"store_id\":")
            writer.id(UInt8(ascii: "s"), store + 1, width: storeWidth)
            writer.raw(",\"user_id\":")
            writer.id(UInt8(ascii: "u"), Int(author) + 1, width: userWidth)
            writer.raw(",\"rating\":")
            writer.int(rating)
            writer.raw(",\"context\":")
            writer.quoted(text.bytes)
            writer.raw(",\"commentImageName\":[],\"createdAt\":")
            // Spread over a year in id order, so "newest first" means something.
            writer.timestamp(Self.epoch + index * max(1, 365 * 86_400 / max(commentCount, 1)))
            writer.raw("}")
            try writer.flushIfFull()
            report(SeedFormat.commentsFile, index + 1, commentCount)
        }
        writer.raw(commentCount == 0 ? "]\n" : "\n]\n")
        try writer.close()
        summary.bytes += writer.bytesWritten
        progress?(Generator.Progress(file: SeedFormat.commentsFile, done: commentCount, total: commentCount))
    }

    private static func rating(quality: UInt8, rng: inout SeededRandom) -> Int {
        let r = rng.below(100)
        let table = ratingTables[Int(quality)]
        for (index, bound) in table.enumerated() where r < bound { return index + 1 }
        return 5
    }

    private func report(_ file: String, _ done: Int, _ total: Int) {
        if done % Self.progressStep == 0, done < total {
            progress?(Generator.Progress(file: file, done: done, total: total))
        }
    }
}
