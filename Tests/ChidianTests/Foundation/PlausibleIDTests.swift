import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The one id rule every feature applies before asking the database.
@Suite struct PlausibleIDTests {
    @Test(arguments: ["s_1", "m_9Zx", "原店铺-01", String(repeating: "a", count: 200)])
    func printableShortIdsArePlausible(id: String) {
        #expect(PlausibleID.check(id))
    }

    @Test(arguments: [
        "", "s\u{0}1", "s\n1", "s\t1", "\u{7f}", String(repeating: "a", count: 201), String(repeating: "店", count: 67),
    ])
    func emptyLongOrControlIdsAreNot(id: String) {
        #expect(!PlausibleID.check(id))
    }
}
