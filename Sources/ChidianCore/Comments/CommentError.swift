/// The failures of reviews and notices.
public enum CommentError: DomainError, Equatable {
    case notFound(id: String)
    case bodyRequired
    case bodyTooLong(max: Int)
    /// NUL, which PostgreSQL text cannot hold.
    case bodyHasNul
    case invalidRating
    case invalidScores
    case invalidPrice
    case invalidImages(String)
    /// Only the author (or an admin, for deletion) may do this.
    case notAuthor(String)
    /// Admins moderate comments; they do not write them.
    case adminCannotWrite
    /// Likes (and replies) are for reviews.
    case notAReview
    case replyNotFound
    /// Nobody likes or reports their own comment.
    case ownComment(String)

    public var code: String {
        switch self {
        case .notFound: "comment_not_found"
        case .bodyRequired: "body_required"
        case .bodyTooLong: "body_too_long"
        case .bodyHasNul: "invalid_body"
        case .invalidRating: "invalid_rating"
        case .invalidScores: "invalid_scores"
        case .invalidPrice: "invalid_price"
        case .invalidImages: "invalid_images"
        case .notAuthor: "not_author"
        case .adminCannotWrite: "forbidden"
        case .notAReview: "not_a_review"
        case .replyNotFound: "reply_not_found"
        case .ownComment: "own_comment"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .notFound, .replyNotFound: .notFound
        case .notAuthor, .adminCannotWrite, .ownComment: .forbidden
        default: .invalid
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No comment \(id.prefix(64))."
        case .bodyRequired: "The body must not be blank."
        case .bodyTooLong(let max): "The body must be at most \(max) characters."
        case .bodyHasNul: "Field 'body' must not contain NUL characters."
        case .invalidRating: "A review needs a rating that is an integer from 1 to 5."
        case .invalidScores:
            "scores is null or an object of taste, environment and service, each an integer from 1 to 5 or null, on reviews only."
        case .invalidPrice: "pricePerPerson is null or an integer from 1 to 100000, on reviews only."
        case .invalidImages(let reason), .notAuthor(let reason), .ownComment(let reason): reason
        case .notAReview: "Only reviews can be liked or answered."
        case .replyNotFound: "The review has no reply."
        case .adminCannotWrite: "Admins moderate comments; they do not write them."
        }
    }
}
