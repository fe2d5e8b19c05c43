import ChidianCore

/// Review and notice bodies assembled from precomputed pieces into one reused buffer: a million reviews cost
/// no `String`s, and each body's length is known without counting it.
struct GeneratedText {
    /// A sentence with a dish slot, split at the `%`.
    struct Template {
        let before: TextPiece
        let after: TextPiece
        let hasSlot: Bool

        init(_ text: String) {
            let parts = text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
            before = TextPiece(String(parts[0]))
            after = TextPiece(parts.count > 1 ? String(parts[1]) : "")
            hasSlot = parts.count > 1
        }
    }

    static let minLength = 20
    static let maxLength = 120

    // Dishes by category index (as in `DishCatalog.categories`), Chinese and English apart.
    private let dishes: [[TextPiece]]
    private let englishDishes: [[TextPiece]]
    private let openings: [TextPiece]
    /// Dish sentences by mood: those for any dish first, then `anyCount[mood]` onwards those for savoury ones.
    private let firstDish: [[Template]]
    private let moreDish: [[Template]]
    private let firstAnyCount: [Int]
    private let moreAnyCount: [Int]
    /// The category whose dishes are sweet (desserts and drinks).
    private let sweetCategory: Int
    private let middles: [[TextPiece]]
    private let stories: [[TextPiece]]
    private let closings: [[TextPiece]]
    private let english: [[TextPiece]]
    private let englishDish: [[Template]]
    private let notices: [Template]
    private let noticeTail: TextPiece
    private let comma = TextPiece("，")
    private let stop = TextPiece("。")
    /// The longest closing plus the stop after the dishes: kept free so a closing always fits.
    private let reserve: Int

    /// The body being built: escaped JSON bytes and length in characters.
    private(set) var bytes: [UInt8] = []
    private(set) var length = 0

    init() {
        let categories = DishCatalog.categories
        dishes = categories.map { category in
            DishCatalog.dishes(in: category).filter { !$0.isEnglish }.map { TextPiece($0.name) }
        }
        englishDishes = categories.map { category in
            DishCatalog.dishes(in: category).filter(\.isEnglish).map { TextPiece($0.name) }
        }
        openings = ReviewVocabulary.openings.map(TextPiece.init)
        firstDish = ReviewVocabulary.firstDish.map { ($0.any + $0.savoury).map(Template.init) }
        moreDish = ReviewVocabulary.moreDish.map { ($0.any + $0.savoury).map(Template.init) }
        firstAnyCount = ReviewVocabulary.firstDish.map(\.any.count)
        moreAnyCount = ReviewVocabulary.moreDish.map(\.any.count)
        sweetCategory = categories.firstIndex(of: "甜品饮品") ?? -1
        middles = ReviewVocabulary.middles.map { $0.map(TextPiece.init) }
        stories = ReviewVocabulary.stories.map { $0.map(TextPiece.init) }
        closings = ReviewVocabulary.closings.map { $0.map(TextPiece.init) }
        english = ReviewVocabulary.english.map { $0.map(TextPiece.init) }
        englishDish = ReviewVocabulary.englishDish.map { $0.map(Template.init) }
        notices = ReviewVocabulary.notices.map(Template.init)
        noticeTail = TextPiece(ReviewVocabulary.noticeTail)
        reserve = 1 + closings.flatMap { $0 }.map(\.length).max()!
        bytes.reserveCapacity(1024)
    }

    /// A review of a store in `category` with `rating`, 20–120 characters, naming one to three of the catalogue's
    /// dishes (mostly ones of the store's category); `mixEnglish` adds an English sentence.
    mutating func review(category: Int, rating: Int, mixEnglish: Bool, rng: inout SeededRandom) {
        reset()
        let mood = ReviewVocabulary.Mood(rating: rating).rawValue
        if rng.chance(0.45) { add(rng.pick(openings)) }

        // Dishes: one always, then maybe a second and a third, distinct, while they fit.
        let englishSentence: TextPiece? = mixEnglish ? englishPiece(category: category, mood: mood, rng: &rng) : nil
        let englishLength = englishSentence?.length ?? 0
        // One to three dishes in all, the English sentence's dish counted.
        let wanted = min(1 + (rng.chance(0.45) ? 1 : 0) + (rng.chance(0.2) ? 1 : 0), englishSentence == nil ? 3 : 2)
        var used = (-1, -1)
        var lastMore = -1
        for n in 0..<wanted {
            let key = dish(category: category, avoiding: used, rng: &rng)
            let name = dishes[key / 1024][key % 1024]
            let sweet = key / 1024 == sweetCategory
            let templates = n == 0 ? firstDish[mood] : moreDish[mood]
            let usable = sweet ? (n == 0 ? firstAnyCount[mood] : moreAnyCount[mood]) : templates.count
            var choice = rng.below(usable)
            // "…也不错，…也不错" reads like a machine: never the same follow-up twice in a row.
            if n > 1, choice == lastMore { choice = (choice + 1) % usable }
            if n > 0 { lastMore = choice }
            let template = templates[choice]
            let cost = template.before.length + name.length + template.after.length + 1
            if n > 0, length + cost + reserve + englishLength > Self.maxLength { break }
            if n > 0 { add(comma) }
            add(template.before)
            add(name)
            add(template.after)
            if n == 0 { used.0 = key } else { used.1 = key }
        }
        add(stop)

        if rng.chance(0.35) {
            let story = rng.pick(stories[mood])
            if length + story.length + reserve + englishLength <= Self.maxLength { add(story) }
        }

        // Zero to three remarks on service and the room, not the same one twice in a row, then maybe a closing;
        // a short review gets remarks until it is long enough.
        let pool = middles[mood]
        let closing: TextPiece? = rng.chance(0.7) ? rng.pick(closings[mood]) : nil
        let tail = (closing?.length ?? 0) + englishLength
        var lastMiddle = -1
        var remarks = rng.below(4)
        while remarks > 0 || length + tail < Self.minLength {
            var index = rng.below(pool.count)
            if index == lastMiddle { index = (index + 1) % pool.count }
            if length + pool[index].length + reserve + englishLength > Self.maxLength { break }
            add(pool[index])
            lastMiddle = index
            remarks -= 1
        }
        if let closing { add(closing) }
        if let englishSentence { add(englishSentence) }
    }

    /// A manager's notice for a store in `category`, 20–120 characters.
    mutating func notice(category: Int, rng: inout SeededRandom) {
        reset()
        let template = rng.pick(notices)
        add(template.before)
        if template.hasSlot {
            let list = dishes[category]
            add(list[rng.below(list.count)])
        }
        add(template.after)
        if length < Self.minLength { add(noticeTail) }
    }

    // MARK: - Parts

    private mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        length = 0
    }

    private mutating func add(_ piece: TextPiece) {
        bytes.append(contentsOf: piece.bytes)
        length += piece.length
    }

    /// A dish of the store's category four times in five, otherwise of any category, as `category * 1024 + index`;
    /// never one already used in this review.
    private func dish(category: Int, avoiding used: (Int, Int), rng: inout SeededRandom) -> Int {
        let chosen = rng.chance(0.8) ? category : rng.below(dishes.count)
        let count = dishes[chosen].count
        var key = chosen * 1024 + rng.below(count)
        // Step past the (at most two) dishes already named; every list is longer than that.
        for _ in 0..<2 where key == used.0 || key == used.1 {
            key = chosen * 1024 + (key % 1024 + 1) % count
        }
        return key
    }

    /// An English sentence, naming one of the category's English dishes half the time when it has any.
    private func englishPiece(category: Int, mood: Int, rng: inout SeededRandom) -> TextPiece {
        var text: [UInt8] = []
        var length = 0
        let own = englishDishes[category]
        if !own.isEmpty, rng.chance(0.5) {
            let name = rng.pick(own)
            let template = rng.pick(englishDish[mood])
            for piece in [template.before, name, template.after] {
                text.append(contentsOf: piece.bytes)
                length += piece.length
            }
        } else {
            let piece = rng.pick(english[mood])
            text = piece.bytes
            length = piece.length
        }
        return TextPiece(escapedBytes: text, length: length)
    }
}

extension TextPiece {
    init(escapedBytes: [UInt8], length: Int) {
        self.bytes = escapedBytes
        self.length = length
    }
}
