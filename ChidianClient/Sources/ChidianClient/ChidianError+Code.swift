extension ChidianError {
    /// The contract's `code`, what clients branch on: every code the document's `ProblemCode` schema lists, and
    /// `.unknown` for one this build does not know (a newer server), kept as sent.
    ///
    /// Written by scripts/client-error-codes.py from openapi.json; `ChidianErrorTests` fails when the document
    /// lists a code this enum lacks.
    public enum Code: Hashable, Sendable {
        case adminRequired
        case alreadyRedeemed
        case alreadyReported
        case bodyRequired
        case bodyTooLarge
        case bodyTooLong
        case busy
        case cannotFollowSelf
        case claimExpired
        case claimLimit
        case codeNotFound
        case commentNotFound
        case couponNotFound
        case couponNotLive
        case databaseUnavailable
        case forbidden
        case imageNotFound
        case imageTooLarge
        case invalidAction
        case invalidAddress
        case invalidAmount
        case invalidBefore
        case invalidBody
        case invalidCoupon
        case invalidCursor
        case invalidDescription
        case invalidFormat
        case invalidHours
        case invalidIdempotencyKey
        case invalidIds
        case invalidImage
        case invalidImages
        case invalidKind
        case invalidLastEventId
        case invalidLimit
        case invalidLocation
        case invalidName
        case invalidNear
        case invalidNote
        case invalidOpen
        case invalidPassword
        case invalidPrice
        case invalidRadius
        case invalidRange
        case invalidRating
        case invalidReason
        case invalidRecommended
        case invalidRole
        case invalidScores
        case invalidSkip
        case invalidSort
        case invalidState
        case invalidStatus
        case invalidTimeZone
        case invalidToken
        case invalidUnread
        case invalidVisitorId
        case loginRequired
        case managerRequired
        case nameRequired
        case nameTaken
        case nearRequired
        case notAReview
        case notAuthor
        case notFound
        case notStoreOwner
        case nothingToPick
        case ownComment
        case ownStore
        case passwordTooLong
        case queryRequired
        case queryTimeout
        case queryTooLong
        case rateLimited
        case replyNotFound
        case schemaBehind
        case serverBusy
        case soldOut
        case storeNotFound
        case storesRemain
        case tooManyAttempts
        case tooManyStreams
        case unknownCategory
        case unsupportedMediaType
        case userNotFound
        case versionConflict
        case weakPassword
        case wrongPassword
        case unknown(String)

        /// Every known code.
        public static let allKnown: [Code] = [
            .adminRequired, .alreadyRedeemed, .alreadyReported, .bodyRequired, .bodyTooLarge, .bodyTooLong, .busy,
            .cannotFollowSelf, .claimExpired, .claimLimit, .codeNotFound, .commentNotFound, .couponNotFound,
            .couponNotLive, .databaseUnavailable, .forbidden, .imageNotFound, .imageTooLarge, .invalidAction,
            .invalidAddress, .invalidAmount, .invalidBefore, .invalidBody, .invalidCoupon, .invalidCursor,
            .invalidDescription, .invalidFormat, .invalidHours, .invalidIdempotencyKey, .invalidIds, .invalidImage,
            .invalidImages, .invalidKind, .invalidLastEventId, .invalidLimit, .invalidLocation, .invalidName,
            .invalidNear, .invalidNote, .invalidOpen, .invalidPassword, .invalidPrice, .invalidRadius,
            .invalidRange, .invalidRating, .invalidReason, .invalidRecommended, .invalidRole, .invalidScores,
            .invalidSkip, .invalidSort, .invalidState, .invalidStatus, .invalidTimeZone, .invalidToken,
            .invalidUnread, .invalidVisitorId, .loginRequired, .managerRequired, .nameRequired, .nameTaken,
            .nearRequired, .notAReview, .notAuthor, .notFound, .notStoreOwner, .nothingToPick, .ownComment,
            .ownStore, .passwordTooLong, .queryRequired, .queryTimeout, .queryTooLong, .rateLimited, .replyNotFound,
            .schemaBehind, .serverBusy, .soldOut, .storeNotFound, .storesRemain, .tooManyAttempts, .tooManyStreams,
            .unknownCategory, .unsupportedMediaType, .userNotFound, .versionConflict, .weakPassword, .wrongPassword,
        ]

        private static let byRawValue = Dictionary(uniqueKeysWithValues: allKnown.map { ($0.rawValue, $0) })

        public init(rawValue: String) { self = Self.byRawValue[rawValue] ?? .unknown(rawValue) }

        /// The code as the server sends it (snake_case).
        public var rawValue: String {
            switch self {
            case .adminRequired: "admin_required"
            case .alreadyRedeemed: "already_redeemed"
            case .alreadyReported: "already_reported"
            case .bodyRequired: "body_required"
            case .bodyTooLarge: "body_too_large"
            case .bodyTooLong: "body_too_long"
            case .busy: "busy"
            case .cannotFollowSelf: "cannot_follow_self"
            case .claimExpired: "claim_expired"
            case .claimLimit: "claim_limit"
            case .codeNotFound: "code_not_found"
            case .commentNotFound: "comment_not_found"
            case .couponNotFound: "coupon_not_found"
            case .couponNotLive: "coupon_not_live"
            case .databaseUnavailable: "database_unavailable"
            case .forbidden: "forbidden"
            case .imageNotFound: "image_not_found"
            case .imageTooLarge: "image_too_large"
            case .invalidAction: "invalid_action"
            case .invalidAddress: "invalid_address"
            case .invalidAmount: "invalid_amount"
            case .invalidBefore: "invalid_before"
            case .invalidBody: "invalid_body"
            case .invalidCoupon: "invalid_coupon"
            case .invalidCursor: "invalid_cursor"
            case .invalidDescription: "invalid_description"
            case .invalidFormat: "invalid_format"
            case .invalidHours: "invalid_hours"
            case .invalidIdempotencyKey: "invalid_idempotency_key"
            case .invalidIds: "invalid_ids"
            case .invalidImage: "invalid_image"
            case .invalidImages: "invalid_images"
            case .invalidKind: "invalid_kind"
            case .invalidLastEventId: "invalid_last_event_id"
            case .invalidLimit: "invalid_limit"
            case .invalidLocation: "invalid_location"
            case .invalidName: "invalid_name"
            case .invalidNear: "invalid_near"
            case .invalidNote: "invalid_note"
            case .invalidOpen: "invalid_open"
            case .invalidPassword: "invalid_password"
            case .invalidPrice: "invalid_price"
            case .invalidRadius: "invalid_radius"
            case .invalidRange: "invalid_range"
            case .invalidRating: "invalid_rating"
            case .invalidReason: "invalid_reason"
            case .invalidRecommended: "invalid_recommended"
            case .invalidRole: "invalid_role"
            case .invalidScores: "invalid_scores"
            case .invalidSkip: "invalid_skip"
            case .invalidSort: "invalid_sort"
            case .invalidState: "invalid_state"
            case .invalidStatus: "invalid_status"
            case .invalidTimeZone: "invalid_time_zone"
            case .invalidToken: "invalid_token"
            case .invalidUnread: "invalid_unread"
            case .invalidVisitorId: "invalid_visitor_id"
            case .loginRequired: "login_required"
            case .managerRequired: "manager_required"
            case .nameRequired: "name_required"
            case .nameTaken: "name_taken"
            case .nearRequired: "near_required"
            case .notAReview: "not_a_review"
            case .notAuthor: "not_author"
            case .notFound: "not_found"
            case .notStoreOwner: "not_store_owner"
            case .nothingToPick: "nothing_to_pick"
            case .ownComment: "own_comment"
            case .ownStore: "own_store"
            case .passwordTooLong: "password_too_long"
            case .queryRequired: "query_required"
            case .queryTimeout: "query_timeout"
            case .queryTooLong: "query_too_long"
            case .rateLimited: "rate_limited"
            case .replyNotFound: "reply_not_found"
            case .schemaBehind: "schema_behind"
            case .serverBusy: "server_busy"
            case .soldOut: "sold_out"
            case .storeNotFound: "store_not_found"
            case .storesRemain: "stores_remain"
            case .tooManyAttempts: "too_many_attempts"
            case .tooManyStreams: "too_many_streams"
            case .unknownCategory: "unknown_category"
            case .unsupportedMediaType: "unsupported_media_type"
            case .userNotFound: "user_not_found"
            case .versionConflict: "version_conflict"
            case .weakPassword: "weak_password"
            case .wrongPassword: "wrong_password"
            case .unknown(let code): code
            }
        }
    }
}
