import Foundation

/// The comment rules of the contract, free of any database.
public enum CommentRules {
    public static let maxBodyLength = 5000
    public static let maxImages = 9
    public static let ratingRange = 1...5

    /// The trimmed body, or 400 `body_required` / `body_too_long` (counted as `String.count`).
    public static func validBody(_ raw: String?) throws -> String {
        let body = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw Problem.badRequest("body_required", "The body must not be blank.") }
        guard body.count <= maxBodyLength else {
            throw Problem.badRequest("body_too_long", "The body must be at most \(maxBodyLength) characters.")
        }
        // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
        guard !body.unicodeScalars.contains("\u{0}") else {
            throw Problem.invalidBody("Field 'body' must not contain NUL characters.")
        }
        return body
    }

    /// A review's rating: a JSON integer 1–5, else 400 `invalid_rating` (missing, null, fraction, string…).
    public static func validRating(_ raw: JSONValue?) throws -> Int {
        guard let value = raw?.integerValue, ratingRange.contains(value) else {
            throw Problem.badRequest("invalid_rating", "A review needs a rating that is an integer from 1 to 5.")
        }
        return value
    }

    /// At most nine distinct, well-formed image ids, else 400 `invalid_images`. Ownership is checked against the database.
    public static func validImageIDs(_ ids: [String]) throws -> [String] {
        guard ids.count <= maxImages else {
            throw Problem.badRequest("invalid_images", "A comment holds at most \(maxImages) images.")
        }
        guard Set(ids).count == ids.count else {
            throw Problem.badRequest("invalid_images", "An image appears more than once.")
        }
        for id in ids where !PlausibleID.check(id) {
            throw Problem.badRequest("invalid_images", "There is no image \(id.prefix(64)).")
        }
        return ids
    }
}
