import Foundation
import Testing

@testable import ChidianCore

/// Session tokens, visitor ids and CSRF tokens: 32 random bytes written as base64url without padding.
@Suite struct TokensTests {
    @Test func base64URLIsFoundationsBase64WithTheURLAlphabetAndNoPadding() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Tokens.base64URL(bytes) == expected, "\(bytes)")
        }
        #expect(Tokens.base64URL([0xfb, 0xff, 0xbf]) == "-_-_")
    }

    @Test func generatedTokensAreValidVisitorIDsAndNeverRepeat() {
        let tokens = (0..<2_000).map { _ in Tokens.generate() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens.prefix(100) {
            #expect(token.utf8.count == 43 && Viewer.isValidVisitorID(token), "\(token)")
        }
    }
}
