/// The one rule for ids arriving in paths, bodies and cursors: short printable text. One that cannot name a row
/// (empty, over 200 bytes, a control character, NUL included, which PostgreSQL text refuses with an error) is
/// answered as "not found" or "invalid" without asking the database.
public enum PlausibleID {
    public static func check(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 200 && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
