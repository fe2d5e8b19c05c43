import Foundation
import Testing

@testable import ChidianCore

/// Hot paths written out by hand in place of Foundation's and the standard library's generic code (issue #45: a
/// featured page spent a tenth of its CPU encoding its cursor and a seventh drawing uniform numbers): each must
/// give exactly what it replaced.
@Suite struct HandWrittenEquivalenceTests {
    static func encoderToken(_ cursor: Cursor) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(cursor).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func cursorTokensAreTheBytesJSONEncoderWrites() throws {
        // setup: every control character, the characters JSON escapes, slashes, CJK and emoji, and lengths that
        // leave each base64 remainder
        var texts = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["\"", "\\", "/", "a/b", "火锅|3.5", "🍜", "2026-01-31 12:00:00.123456+00", "", "x", "xy", "xyz"]
        var generator = SeededRandom(seed: 45)
        let alphabet = Array("ab/\\\"\n\t\u{7}中😀 |")
        for _ in 0..<200 {
            let length = Int(generator.next() % 12)
            texts.append(String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }))
        }
        for (index, text) in texts.enumerated() {
            let cursor = Cursor(list: index % 2 == 0 ? "feed" : text, keys: Array(texts[index...].prefix(index % 4)))
            // MUT: the hand-written token
            let token = cursor.token
            // validate
            #expect(token == (try Self.encoderToken(cursor)), "\(text.unicodeScalars.map(\.value))")
            #expect(try Cursor(token: token) == cursor)
        }
    }

    @Test func uniformDrawsAreTheStandardLibrarys() {
        for lower in [0, Double.ulpOfOne, 0.25] {
            var mine = SeededRandom(seed: 7)
            var theirs = SeededRandom(seed: 7)
            for draw in 0..<20_000 {
                // MUT: the written-out draw
                let a = BetaSample.uniform(from: lower, using: &mine)
                // validate: the same value, and the generators still in step
                let b = Double.random(in: lower..<1, using: &theirs)
                #expect(a == b, "draw \(draw) from \(lower)")
                if a != b { return }
            }
            #expect(mine.next() == theirs.next())
        }
    }
}
