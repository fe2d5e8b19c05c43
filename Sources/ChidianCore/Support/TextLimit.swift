/// The one length rule for every text limit: at most `limit` characters as people see them (grapheme
/// clusters, Swift's `String.count`, as the contract says) and at most `limit × 8` Unicode code points,
/// which is the bound the CHECK constraints hold (PostgreSQL's `char_length`; sql/006_hostile_input.sql).
/// A value within both is one the database accepts, so no length ever reaches it as a 500.
public enum TextLimit {
    public static let codePointsPerCharacter = 8

    public static func fits(_ text: String, _ limit: Int) -> Bool {
        text.unicodeScalars.count <= limit * codePointsPerCharacter && text.count <= limit
    }
}
