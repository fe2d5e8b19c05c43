import Testing

@testable import ChidianCore

@Suite struct TextShinglesTests {
    let original = "这家的水煮鱼特别嫩，辣得很过瘾，服务员也热情，下次还来！"

    @Test func aCopyWithSmallEditsIsNearAndSharesABand() {
        let copy = "这家水煮鱼特别嫩，辣得过瘾，服务员热情，下次还来"
        let (a, b) = (TextShingles(original), TextShingles(copy))
        #expect(a.similarity(to: b) > 0.6, "\(a.similarity(to: b))")
        #expect(!Set(a.bands()).isDisjoint(with: b.bands()))
    }

    @Test func anotherReviewIsFarAndSharesNoBand() {
        let other = "环境一般，排队太久，菜量偏少，价格偏贵，不会再来了。"
        let (a, b) = (TextShingles(original), TextShingles(other))
        #expect(a.similarity(to: b) < 0.2, "\(a.similarity(to: b))")
        #expect(Set(a.bands()).isDisjoint(with: b.bands()))
    }

    @Test func spacesPunctuationAndCaseDoNotCount() {
        #expect(TextShingles("Hot Pot, GREAT!").pairs == TextShingles("hotpot great").pairs)
        #expect(TextShingles("Hot Pot, GREAT!").similarity(to: TextShingles("hotpotgreat")) == 1)
        #expect(TextShingles(original).bands() == TextShingles(original + " ").bands())
    }

    @Test func emptyAndOneCharacterTexts() {
        #expect(TextShingles("！？ ").pairs.isEmpty && TextShingles("！？").bands().isEmpty)
        #expect(TextShingles("好").similarity(to: TextShingles("好!")) == 1)
    }
}
