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

    public static let priceRange = 1...100_000

    /// `scores`: null (none), or an object whose keys are among `taste`, `environment`, `service`, each an
    /// integer 1–5 or null; else 400 `invalid_scores`. An object without any score is none.
    public static func validScores(_ raw: JSONValue) throws -> CommentScores? {
        guard case .object(let fields) = raw else {
            if raw == .null { return nil }
            throw CommentError.invalidScores
        }
        var scores = CommentScores()
        for (key, value) in fields {
            let score: Int?
            switch value {
            case .null: score = nil
            case .integer(let number) where ratingRange.contains(number): score = number
            default: throw CommentError.invalidScores
            }
            switch key {
            case "taste": scores.taste = score
            case "environment": scores.environment = score
            case "service": scores.service = score
            default: throw CommentError.invalidScores
            }
        }
        return scores.isEmpty ? nil : scores
    }

    /// `pricePerPerson` (人均): null, or an integer 1–100,000; else 400 `invalid_price`.
    public static func validPrice(_ raw: JSONValue) throws -> Int? {
        switch raw {
        case .null: return nil
        case .integer(let price) where priceRange.contains(price): return price
        default: throw CommentError.invalidPrice
        }
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
