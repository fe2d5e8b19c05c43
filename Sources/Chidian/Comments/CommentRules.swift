import Foundation

/// The comment rules of the contract, free of any database.
public enum CommentRules {
    public static let maxBodyLength = 5000
    public static let maxImages = 9
    public static let ratingRange = 1...5

    /// The trimmed body, or 400 `body_required` / `body_too_long` (the `TextLimit` rule).
    public static func validBody(_ raw: String?) throws -> String {
        let body = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw CommentError.bodyRequired }
        guard TextLimit.fits(body, maxBodyLength) else {
            throw CommentError.bodyTooLong(max: maxBodyLength)
        }
        // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
        guard !body.unicodeScalars.contains("\u{0}") else {
            throw CommentError.bodyHasNul
        }
        return body
    }

    /// A review's rating: a JSON integer 1–5, else 400 `invalid_rating` (missing, null, fraction, string…).
    public static func validRating(_ raw: JSONValue?) throws -> Int {
        guard let value = raw?.integerValue, ratingRange.contains(value) else {
            throw CommentError.invalidRating
        }
        return value
    }

    /// At most nine distinct, well-formed image ids, else 400 `invalid_images`. Ownership is checked against the database.
    public static func validImageIDs(_ ids: [String]) throws -> [String] {
        guard ids.count <= maxImages else {
            throw CommentError.invalidImages("A comment holds at most \(maxImages) images.")
        }
        guard Set(ids).count == ids.count else {
            throw CommentError.invalidImages("An image appears more than once.")
        }
        for id in ids where !PlausibleID.check(id) {
            throw CommentError.invalidImages("There is no image \(id.prefix(64)).")
        }
        return ids
    }
}
