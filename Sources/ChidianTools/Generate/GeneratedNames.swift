import ChidianCore
import Foundation

/// Nicknames, store names, descriptions and addresses for generated data.
enum GeneratedNames {
    /// Short dishes read well inside nicknames (爱吃火锅的小猫).
    private static let nicknameDishes = DishCatalog.dishes.filter { !$0.isEnglish && $0.name.count <= 3 }.map(\.name)

    /// A nickname; uniqueness is the caller's business (it appends digits on a clash).
    static func nickname(_ rng: inout SeededRandom) -> String {
        let v = UserVocabulary.self
        let surname = rng.pick(v.surnames)
        let given = rng.pick(v.givenNames)
        var name: String
        switch rng.below(10) {
        case 0: name = "爱吃" + rng.pick(nicknameDishes) + "的" + rng.pick(v.nouns)
        case 1: name = rng.pick(v.moods) + "的" + rng.pick(v.nouns)
        case 2: name = rng.pick(v.places) + rng.pick(v.foodies)
        case 3: name = surname.hanzi + given.hanzi
        case 4: name = (rng.chance(0.5) ? "小" : "老") + surname.hanzi + rng.pick(v.tails)
        case 5: name = surname.pinyin + given.pinyin
        case 6: name = capitalized(surname.pinyin) + capitalized(given.pinyin)
        case 7: name = given.pinyin + (rng.chance(0.5) ? "." : "_") + surname.pinyin
        case 8:
            let english = rng.pick(v.englishNames)
            switch rng.below(3) {
            case 0: name = english + " " + capitalized(surname.pinyin)
            case 1: name = english.lowercased() + "_" + surname.pinyin
            default: name = english + capitalized(surname.pinyin)
            }
        default:
            name =
                (rng.chance(0.5) ? given.pinyin : rng.pick(v.englishNames).lowercased()) + "_"
                + rng.pick(v.englishTails)
        }
        if rng.chance(0.25) {
            // Birth years and lucky numbers, as people add them.
            name += rng.chance(0.5) ? String(rng.between(1975, 2008)) : String(rng.between(1, 99))
        }
        return name
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// A new brand's name for a store of `style`: an owner's name or a flavour word, then what the place is.
    static func brand(_ style: StoreVocabulary.CategoryStyle, _ rng: inout SeededRandom) -> String {
        let opening: String
        if rng.chance(0.45) {
            let pattern = rng.pick(StoreVocabulary.ownerPatterns)
            opening = pattern.replacingOccurrences(of: "%", with: rng.pick(UserVocabulary.surnames).hanzi)
        } else {
            opening = rng.pick(style.prefixes)
        }
        return opening + rng.pick(style.stems)
    }

    /// A branch of a chain: 蜀香火锅·朝阳店.
    static func branch(of brand: String, district: String) -> String {
        brand + "·" + district + "店"
    }

    static func address(city: StoreVocabulary.City, district: Int, _ rng: inout SeededRandom) -> String {
        var text =
            city.name + "市" + city.districts[district].full + rng.pick(StoreVocabulary.roads)
            + String(rng.between(1, 888)) + "号"
        switch rng.below(4) {
        case 0: text += rng.pick(StoreVocabulary.malls) + String(rng.between(1, 6)) + "层"
        case 1: text += String(rng.between(1, 12)) + "号楼底商"
        default: break
        }
        return text
    }

    /// 重庆老火锅，牛油锅底每天现炒。招牌毛肚、鸭肠。有包间，适合聚餐。营业时间 10:30–22:00，人均 ¥98。
    static func description(_ style: StoreVocabulary.CategoryStyle, dishes: [String], _ rng: inout SeededRandom)
        -> String
    {
        var signature: [String] = []
        let count = min(dishes.count, rng.between(2, 3))
        while signature.count < count {
            let dish = rng.pick(dishes)
            if !signature.contains(dish) { signature.append(dish) }
        }
        return rng.pick(style.blurbs) + "。招牌" + signature.joined(separator: "、") + "。"
            + rng.pick(StoreVocabulary.features) + "。营业时间 " + rng.pick(style.hours) + "，人均 ¥"
            + String(rng.between(style.price.lowerBound, style.price.upperBound)) + "。"
    }
}
