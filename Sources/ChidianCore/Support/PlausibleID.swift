/// The one rule for ids arriving in paths, bodies and cursors: short printable text. One that cannot name a row
/// (empty, over 200 bytes, a control character, NUL included, which PostgreSQL text refuses with an error) is
/// answered as "not found" or "invalid" without asking the database.
public enum PlausibleID {
    public static func check(_ id: String) -> Bool {
        // Control characters (general category Cc) are exactly U+0000–U+001F and U+007F–U+009F.
        !id.isEmpty && id.utf8.count <= 200
            && !id.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
