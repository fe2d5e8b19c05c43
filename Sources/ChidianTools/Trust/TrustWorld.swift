import ChidianCore
import Foundation

/// The population `chidian eval-trust` judges (docs/TRUST.md): organic reviewers who browse, favorite and review
/// over 90 days in their own words, and rings of the attack kinds, each aimed at a store with 20 organic reviews.
/// Deterministic for a seed.
struct TrustWorld {
    enum Kind: Int, CaseIterable, Sendable {
        case ring = 1, bombing, slowRing, copiedText, boughtAccounts
        /// Added after the rule chose: rings that browse like newcomers, to say plainly what gets through.
        case carefulRing, carefulSlowRing

        var name: String {
            switch self {
            case .ring: "5★ ring, 30 new accounts from 5 addresses within a day"
            case .bombing: "1★ bombing, 30 new accounts from 5 addresses within a day"
            case .slowRing: "slow 5★ ring, 30 new accounts over two weeks, each from its own address"
            case .copiedText: "copied text, 30 new accounts over two days from 10 addresses, 3 texts lightly edited"
            case .boughtAccounts:
                "bought old accounts (held out): 30 accounts with months of history, 5★ from 5 addresses"
            case .carefulRing: "careful 5★ ring: as 1, but each account browses and opens the store first"
            case .carefulSlowRing: "careful slow 5★ ring: as 3, but each account browses and opens the store first"
            }
        }
    }

    enum Role: Equatable {
        case organic(newcomerFirst: Bool)
        case attack(Kind)
    }

    struct User {
        var id: String
        var createdAt: Date
        var address: String
        var device: String
    }

    struct Review {
        var id: String
        var store: String
        var author: String
        var rating: Int
        var body: String
        var at: Date
        var role: Role
    }

    struct Target {
        var kind: Kind
        var store: String
        var organicMean: Double
    }

    var users: [User] = []
    var stores: [String] = []
    var opens: [(user: String, store: String, first: Date, last: Date)] = []
    var favorites: [(user: String, store: String, at: Date)] = []
    var reviews: [Review] = []
    var targets: [Target] = []

    static let day: TimeInterval = 86400

    /// `kinds` each hit `perKind` stores; `start` is the first of the 90 days.
    init(seed: UInt64, kinds: [Kind], perKind: Int = 3, organicUsers: Int = 600, otherStores: Int = 25, start: Date) {
        var random = SeededRandom(seed: seed, stream: 48)
        let attackDay = start.addingTimeInterval(80 * Self.day)
        let end = start.addingTimeInterval(89 * Self.day)
        func at(_ from: Date, _ to: Date) -> Date {
            from.addingTimeInterval(random.unit() * max(0, to.timeIntervalSince(from)))
        }
        // Stores: the targets first, each with its quality.
        let targetCount = kinds.count * perKind
        stores = (0..<(targetCount + otherStores)).map { String(format: "s_eval%03d", $0) }
        let quality = stores.map { _ in 2.8 + random.unit() * 1.6 }
        func organicRating(_ store: Int) -> Int {
            // Box–Muller: a normal spread of 0.9 stars around the store's quality.
            let noise = (-2 * log(max(random.unit(), 1e-12))).squareRoot() * cos(2 * .pi * random.unit())
            return min(5, max(1, Int((quality[store] + 0.9 * noise).rounded())))
        }
        // Organic users: three in four established, one in four new during the 90 days; one in twenty shares a
        // household address with another.
        for i in 0..<organicUsers {
            let newcomer = i % 4 == 3
            let created =
                newcomer
                ? start.addingTimeInterval(random.unit() * 85 * Self.day)
                : start.addingTimeInterval(-(30 + random.unit() * 670) * Self.day)
            users.append(
                User(
                    id: String(format: "u_org%04d", i), createdAt: created,
                    address: "10.\(i / 250).\(i % 250).\(random.between(1, 250))", device: "dev-org-\(i)-\(seed)"))
        }
        for _ in 0..<(organicUsers / 20) {
            let a = random.below(organicUsers), b = random.below(organicUsers)
            users[b].address = users[a].address
        }
        // What each organic user reviews: every target gets exactly 20 before its attack; other stores 10–40.
        var plans: [(user: Int, store: Int, from: Date, to: Date)] = []
        for t in 0..<targetCount {
            var chosen = Set<Int>()
            while chosen.count < 20 {
                let u = random.below(organicUsers)
                let from = max(start, users[u].createdAt.addingTimeInterval(0.2 * Self.day))
                guard from < attackDay.addingTimeInterval(-16 * Self.day), !chosen.contains(u) else { continue }
                chosen.insert(u)
                plans.append((u, t, from, attackDay.addingTimeInterval(-16 * Self.day)))
            }
        }
        for s in targetCount..<stores.count {
            var chosen = Set<Int>()
            let count = random.between(10, 40)
            var tries = 0
            while chosen.count < count, tries < 10_000 {
                tries += 1
                let u = random.below(organicUsers)
                let from = max(start, users[u].createdAt.addingTimeInterval(0.2 * Self.day))
                guard from < end, !chosen.contains(u) else { continue }
                chosen.insert(u)
                plans.append((u, s, from, end))
            }
        }
        var firstReview: [Int: Date] = [:]
        var organic: [(user: Int, store: Int, at: Date)] = []
        for plan in plans {
            let when = at(plan.from, plan.to)
            organic.append((plan.user, plan.store, when))
            firstReview[plan.user] = min(firstReview[plan.user] ?? .distantFuture, when)
        }
        var reviewed = Set<String>()
        for (n, entry) in organic.sorted(by: { $0.at < $1.at }).enumerated() {
            let user = users[entry.user]
            let key = "\(user.id)|\(stores[entry.store])"
            guard reviewed.insert(key).inserted else { continue }
            // Nine in ten open the store's page before reviewing it.
            if random.chance(0.9) {
                let opened = max(user.createdAt, entry.at.addingTimeInterval(-random.unit() * 3 * Self.day))
                opens.append((user.id, stores[entry.store], opened, entry.at.addingTimeInterval(600)))
            }
            reviews.append(
                Review(
                    id: String(format: "c_org%05d", n), store: stores[entry.store], author: user.id,
                    rating: organicRating(entry.store), body: Self.organicText(&random), at: entry.at,
                    role: .organic(newcomerFirst: entry.user % 4 == 3 && firstReview[entry.user] == entry.at)))
        }
        // Browsing besides: every organic user opens 3–15 stores after signing up (newcomers mostly before their
        // first review) and favorites a few.
        for (i, user) in users.enumerated() {
            let from = max(start.addingTimeInterval(-30 * Self.day), user.createdAt)
            let until = i % 4 == 3 ? (firstReview[i] ?? end) : end
            for _ in 0..<random.between(3, 15) {
                let when = at(from, until)
                opens.append((user.id, stores[random.below(stores.count)], when, when))
            }
            for _ in 0..<random.between(0, 4) {
                favorites.append((user.id, stores[random.below(stores.count)], at(from, end)))
            }
        }
        // The attacks.
        var ringUser = 0
        for (k, kind) in kinds.enumerated() {
            for p in 0..<perKind {
                let index = k * perKind + p
                let store = stores[index]
                let organicRatings = reviews.filter { $0.store == store }.map { Double($0.rating) }
                targets.append(
                    Target(
                        kind: kind, store: store,
                        organicMean: organicRatings.reduce(0, +) / Double(organicRatings.count)))
                let begin = attackDay.addingTimeInterval(Double(p) * 0.3 * Self.day)
                let bases = (0..<3).map { _ in Self.organicText(&random, praise: true) }
                for m in 0..<30 {
                    ringUser += 1
                    let id = String(format: "u_atk%04d", ringUser)
                    var created: Date
                    var posted: Date
                    var address = "203.0.\(index).\(m % 5)"
                    switch kind {
                    case .ring, .bombing, .carefulRing:
                        created = at(begin, begin.addingTimeInterval(0.5 * Self.day))
                        posted = at(created.addingTimeInterval(600), begin.addingTimeInterval(Self.day))
                    case .slowRing, .carefulSlowRing:
                        created = begin.addingTimeInterval(
                            (-14 + Double(m) * 14 / 30) * Self.day + random.unit() * 21600)
                        posted = at(created.addingTimeInterval(3600), created.addingTimeInterval(2 * Self.day))
                        address = "198.51.\(index).\(m)"
                    case .copiedText:
                        created = at(begin, begin.addingTimeInterval(1.5 * Self.day))
                        posted = at(created.addingTimeInterval(600), begin.addingTimeInterval(2 * Self.day))
                        address = "203.0.\(index).\(m % 10)"
                    case .boughtAccounts:
                        created = start.addingTimeInterval(-(100 + random.unit() * 300) * Self.day)
                        posted = at(begin, begin.addingTimeInterval(2 * Self.day))
                    }
                    users.append(User(id: id, createdAt: created, address: address, device: "dev-\(id)-\(seed)"))
                    if kind == .carefulRing || kind == .carefulSlowRing {
                        // Browses a few stores, then the target, between signing up and posting.
                        for _ in 0..<random.between(3, 8) {
                            let when = at(created, posted)
                            opens.append((id, stores[targetCount + random.below(otherStores)], when, when))
                        }
                        let looked = at(created, posted)
                        opens.append((id, store, looked, looked))
                    }
                    if kind == .boughtAccounts {
                        // Months of ordinary use before the sale: browsing, favorites, a few honest reviews.
                        for _ in 0..<random.between(5, 20) {
                            let when = at(start.addingTimeInterval(-60 * Self.day), begin)
                            opens.append((id, stores[targetCount + random.below(otherStores)], when, when))
                        }
                        for r in 0..<random.between(1, 3) {
                            let s = targetCount + random.below(otherStores)
                            guard reviewed.insert("\(id)|\(stores[s])").inserted else { continue }
                            reviews.append(
                                Review(
                                    id: "c_\(id)_old\(r)", store: stores[s], author: id, rating: organicRating(s),
                                    body: Self.organicText(&random),
                                    at: at(start, begin.addingTimeInterval(-5 * Self.day)),
                                    role: .attack(kind)))
                        }
                    }
                    var body = Self.organicText(&random, praise: kind != .bombing, scathing: kind == .bombing)
                    if kind == .copiedText { body = Self.edited(bases[m % 3], &random) }
                    reviews.append(
                        Review(
                            id: "c_\(id)", store: store, author: id, rating: kind == .bombing ? 1 : 5, body: body,
                            at: posted, role: .attack(kind)))
                }
            }
        }
        reviews.sort { ($0.at, $0.id) < ($1.at, $1.id) }
    }

    // MARK: Text

    static let openers = [
        "周末和朋友来的", "第一次来", "加班后来吃", "带家人来", "路过进来", "同事推荐的", "排了半小时", "下雨天来的",
        "生日聚餐", "一个人来吃", "约会来的", "午休来吃", "朋友请客", "看评价来的", "第三次来了", "外地朋友来玩",
    ]
    static let aspects = ["环境", "服务", "味道", "价格", "分量", "上菜速度", "装修", "停车", "排队", "老板", "卫生", "音乐"]
    static let judgements = [
        "很好", "一般", "不错", "有点慢", "超出预期", "偏贵", "实惠", "干净", "热情", "让人失望", "还行", "挺用心",
        "马马虎虎", "比上次好", "没什么特别",
    ]
    static let dishes = [
        "红烧肉", "宫保鸡丁", "麻婆豆腐", "小笼包", "酸菜鱼", "烤鸭", "豌豆黄", "炸酱面", "羊肉串", "糖醋里脊",
        "回锅肉", "水煮鱼", "担担面", "煎饺", "鱼香肉丝", "东坡肉", "锅包肉", "叉烧", "肠粉", "虾饺",
    ]
    static let dishNotes = ["很好吃", "偏咸", "一般般", "值得点", "太油了", "分量足", "火候刚好", "有点凉了", "必点"]
    static let praise = ["强烈推荐", "五星好评", "绝对会再来", "性价比超高", "全城最好吃", "服务一流"]
    static let scorn = ["千万别来", "踩雷了", "再也不来", "服务极差", "不值这个价", "吃完肚子疼"]

    static func organicText(_ random: inout SeededRandom, praise: Bool = false, scathing: Bool = false) -> String {
        var parts = [random.pick(openers)]
        for _ in 0..<random.between(1, 3) { parts.append(random.pick(aspects) + random.pick(judgements)) }
        for _ in 0..<random.between(1, 2) { parts.append(random.pick(dishes) + random.pick(dishNotes)) }
        if praise { parts.append(random.pick(Self.praise)) }
        if scathing { parts.append(random.pick(scorn)) }
        if random.chance(0.3) { parts.append("人均\(random.between(30, 200))元") }
        var middle = Array(parts.dropFirst())
        random.shuffle(&middle)
        return ([parts[0]] + middle).joined(separator: "，") + "。"
    }

    /// A copy with a character or two changed, as rings vary their texts.
    static func edited(_ text: String, _ random: inout SeededRandom) -> String {
        var characters = Array(text)
        for _ in 0..<random.between(1, 2) {
            characters[random.below(characters.count)] = random.pick(["很", "超", "真", "！", "好"])
        }
        return String(characters)
    }
}
