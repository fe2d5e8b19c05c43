import Foundation
import Testing

@testable import ChidianCore
@testable import ChidianWeb

/// The web client's two word lists stay matched, and no page can print a key: every key a template or a page
/// names is in both (`Language.text` falls back to the key itself, which a reader would see).
@Suite struct WebStringsTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/ChidianWeb").standardized

    /// Every file below the web target with one of `extensions`, as text.
    static func sources(_ extensions: Set<String>) throws -> [(name: String, text: String)] {
        let files = try #require(FileManager.default.enumerator(at: web, includingPropertiesForKeys: nil))
        return try files.compactMap { $0 as? URL }.filter { extensions.contains($0.pathExtension) }.map {
            ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8))
        }
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func bothLanguagesHaveTheSameKeysAndPlaceholders() throws {
        #expect(Set(WebStrings.zh.keys).subtracting(WebStrings.en.keys).sorted() == [], "only in zh")
        #expect(Set(WebStrings.en.keys).subtracting(WebStrings.zh.keys).sorted() == [], "only in en")
        for (key, zh) in WebStrings.zh {
            guard let en = WebStrings.en[key] else { continue }
            // `{days}` and the like are filled in by name: a translation must keep every one.
            #expect(
                Set(try Self.matches(#"\{([a-zA-Z]+)\}"#, in: zh))
                    == Set(try Self.matches(#"\{([a-zA-Z]+)\}"#, in: en)),
                "\(key): \(zh) / \(en)")
        }
    }

    @Test func everyKeyATemplateOrAPageNamesIsInBothLists() throws {
        var named: [(key: String, file: String)] = []
        for file in try Self.sources(["mustache"]) {
            named += try Self.matches(#"\{\{[#^/]?\s*t\.([A-Za-z0-9_]+)"#, in: file.text).map { ($0, file.name) }
        }
        for file in try Self.sources(["swift"]) {
            named += try Self.matches(#"\btext\("([A-Za-z0-9_.]+)"\)"#, in: file.text).map { ($0, file.name) }
        }
        // The walk reads the real files: finding none would mean it read nothing.
        #expect(named.count > 100)
        for (key, file) in named {
            #expect(WebStrings.zh[key] != nil && WebStrings.en[key] != nil, "\(file) names \(key), missing from a list")
        }
    }
}
