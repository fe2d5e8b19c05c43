import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The hand-written JSON of the hot shapes must read back exactly as `JSONEncoder.chidian`'s output does.
@Suite struct JSONWriterTests {
    static let awkward = "引号\" 反斜杠\\ 换行\n tab\t \u{01} \u{2028} / 😀 '; DROP TABLE x; --"

    static func sameJSON(_ value: some Encodable & JSONWritable) throws -> (Any, Any) {
        var json = JSONWriter()
        value.write(to: &json)
        let written = try JSONSerialization.jsonObject(with: Data(json.bytes))
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder.chidian.encode(value))
        #expect(written is NSDictionary, "not an object: \(String(decoding: json.bytes, as: UTF8.self))")
        return (written, encoded)
    }

    static func comment(rating: Int?, seconds: Double) -> CommentView {
        CommentView(
            id: "m_1", kind: rating == nil ? .notice : .review, storeId: "s_1",
            store: .init(id: "s_1", name: awkward, category: .init(id: "c_1", name: "火锅"), imageUrl: nil),
            author: .init(id: "u_1", name: "Eater", avatarUrl: "/v1/images/i_1"), rating: rating,
            scores: rating == nil ? nil : CommentScores(taste: 4, environment: nil, service: 5),
            pricePerPerson: rating == nil ? nil : 88, body: awkward,
            imageUrls: ["/v1/images/i_2", "/v1/images/i_3"], likeCount: rating == nil ? 0 : 7, liked: rating != nil,
            recommended: rating == nil || seconds > 0,
            reply: rating == nil
                ? nil
                : .init(
                    body: awkward, author: .init(id: "u_9", name: "店长"),
                    createdAt: Date(timeIntervalSince1970: seconds + 1),
                    updatedAt: Date(timeIntervalSince1970: seconds + 2)),
            createdAt: Date(timeIntervalSince1970: seconds),
            updatedAt: Date(timeIntervalSince1970: seconds + 0.999), version: 3)
    }

    static func store(average: Double?, adSpend: Int?) -> StoreView {
        StoreView(
            id: "s_1", name: awkward, category: .init(id: "c_1", name: "川菜"), description: awkward, address: "",
            managerId: "u_2", managerName: "Boss", imageUrls: [],
            rating: .init(average: average, count: 3, score: 3.6875),
            scores: .init(taste: average, environment: nil, service: 4.25), pricePerPerson: average == nil ? nil : 120,
            dishes: average == nil ? [] : [.init(name: "毛肚", count: 3), .init(name: "水煮鱼", count: 1)],
            favoriteCount: 0, favorited: true, promoted: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000.5),
            updatedAt: Date(timeIntervalSince1970: 951_782_400), version: 1, adSpend: adSpend)
    }

    @Test(arguments: [0.0, 1_700_000_000.25, 951_782_399.999, -1.5, 4_102_444_800, 1_000_000_000_000])
    func aCommentPageReadsBackTheSame(seconds: Double) throws {
        // MUT
        let page = Page(
            items: [Self.comment(rating: 4, seconds: seconds), Self.comment(rating: nil, seconds: seconds)],
            nextCursor: "abc")
        let (written, encoded) = try Self.sameJSON(page)
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
    }

    @Test(arguments: [nil, 5.0, 4.333333333333333, 1e-7] as [Double?], [nil, 0, 1_234_567] as [Int?])
    func aStoreReadsBackTheSame(average: Double?, adSpend: Int?) throws {
        // MUT
        let (written, encoded) = try Self.sameJSON(Self.store(average: average, adSpend: adSpend))
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
        #expect((written as? NSDictionary)?["adSpend"] == nil || adSpend != nil)
    }

    @Test func aPlacedStoreReadsBackTheSame() throws {
        // setup: a position, hours past midnight, another zone and a distance
        var store = Self.store(average: 4.5, adSpend: nil)
        store.location = GeoPoint(lat: 30.659, lng: -104.081_234_567)
        store.hours = try WeeklyHours([.init(day: 5, open: 17 * 60, close: 2 * 60), .init(day: 1, open: 0, close: 0)])
        store.timeZone = "America/New_York"
        store.distanceMeters = 812
        // MUT
        let (written, encoded) = try Self.sameJSON(store)
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
        let object = try #require(written as? NSDictionary)
        #expect(object["distanceMeters"] as? Int == 812)
        #expect(object["openNow"] is Bool)
        #expect((object["hours"] as? [Any])?.count == 2)
    }

    @Test func aPickReadsBackTheSame() throws {
        // setup
        var store = Self.store(average: 4.6, adSpend: nil)
        store.distanceMeters = 800
        let answer = PickService.Answer(
            store: store, reasons: [.init(kind: .distance, text: "800 m"), .init(kind: .interest, text: Self.awkward)],
            alternatives: [Self.store(average: nil, adSpend: nil), Self.store(average: 3.0, adSpend: 12)])
        // MUT
        let (written, encoded) = try Self.sameJSON(answer)
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
        #expect(((written as? NSDictionary)?["alternatives"] as? [Any])?.count == 2)
    }

    @Test func searchResultsAndAnEmptyLastPageReadBackTheSame() throws {
        let result = SearchResult(
            store: Self.store(average: 5, adSpend: nil),
            matches: [.init(field: .name, text: Self.awkward), .init(field: .dish, text: "鱼", count: 12)])
        // MUT
        let (written, encoded) = try Self.sameJSON(SearchPage(items: [result], nextCursor: "c", approximate: false))
        let (emptyWritten, emptyEncoded) = try Self.sameJSON(SearchPage(items: [], nextCursor: nil, approximate: true))
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
        #expect(emptyWritten as? NSDictionary == emptyEncoded as? NSDictionary)
    }

    @Test func aFeedPageReadsBackTheSame() throws {
        let page = FeedService.FeedPage(
            items: [Self.comment(rating: 2, seconds: 1_234_567_890)], nextCursor: nil,
            personalization: .init(
                categories: [.init(id: "c_1", name: Self.awkward, score: 2.718281828459045)],
                explore: [.init(id: "c_2", name: Self.awkward)], coldStart: true))
        // MUT
        let (written, encoded) = try Self.sameJSON(page)
        // validate
        #expect(written as? NSDictionary == encoded as? NSDictionary)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNonFiniteDoubleIsRefusedLikeJSONEncoderDoes(value: Double) throws {
        let store = Self.store(average: value, adSpend: nil)
        // MUT / validate
        #expect(throws: EncodingError.self) { try JSONWriter.bytes(of: store) }
        #expect(throws: EncodingError.self) { try JSONEncoder.chidian.encode(store) }
    }

    @Test func aJSONValueReadsBackAsItCame() throws {
        let text = #"{"a":[1,2.5,"三\n",null,true,{"z":{}}],"b":-7,"c":"\u0001"}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        // MUT
        let written = try JSONWriter.bytes(of: value)
        let encoded = try JSONEncoder.chidian.encode(value)
        // validate
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(written)) as? NSDictionary == original)
        #expect(try JSONSerialization.jsonObject(with: encoded) as? NSDictionary == original)
    }
}
