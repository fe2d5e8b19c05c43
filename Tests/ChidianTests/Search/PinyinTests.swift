import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct PinyinTests {
    @Test func hanTextReadsAsTonelessPinyin() {
        #expect(Pinyin.syllables("火锅") == ["huo", "guo"])
        #expect(Pinyin.spellings("小龙坎火锅").syllables == "xiaolongkanhuoguo")
        #expect(Pinyin.spellings("小龙坎火锅").initials == "xlkhg")
        // Words are read whole: 重庆 is chong qing, not zhong qing.
        #expect(Pinyin.spellings("重庆火锅").syllables == "chongqinghuoguo")
        // ü loses its dots, as the query's v does.
        #expect(Pinyin.spellings("绿豆沙").syllables == "ludousha")
    }

    @Test func onlyHanCharactersHavePinyin() {
        #expect(Pinyin.spellings("老王BBQ烧烤·2号店").syllables == "laowangshaokaohaodian")
        #expect(Pinyin.spellings("老王BBQ烧烤·2号店").initials == "lwskhd")
        #expect(Pinyin.spellings("Pizza Hut").syllables.isEmpty)
        #expect(Pinyin.keys("Pizza Hut").isEmpty)
    }

    @Test func keysStartAtEverySyllableAndEveryInitial() {
        #expect(Pinyin.keys("小龙坎") == ["xiaolongkan", "longkan", "kan", "xlk", "lk", "k"])
    }

    @Test func aQueryIsPinyinOnlyWhenItIsLettersSpacesAndApostrophes() throws {
        #expect(try SearchQuery("Huo Guo").pinyin == "huoguo")
        #expect(try SearchQuery("xi'an").pinyin == "xian")
        #expect(try SearchQuery("lv dou").pinyin == "ludou")
        #expect(try SearchQuery("  HG ").pinyin == "hg")
        #expect(try SearchQuery("hg1").pinyin == nil)
        #expect(try SearchQuery("火锅").pinyin == nil)
        #expect(try SearchQuery("a_b").pinyin == nil)
        #expect(try SearchQuery("'").pinyin == nil)
        #expect(try SearchQuery("  Hot Pot ").text == "Hot Pot")
    }
}
