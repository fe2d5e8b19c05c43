import Foundation
import Logging
import PostgresNIO

/// What a viewer does beyond opening reviews, as interest in a store's category, measured in opens: a base weight
/// per signal times `scale`, which `chidian eval-recommender` chose (docs/RECOMMENDER.md).
public enum InterestSignal: Sendable, Equatable {
    case storeOpened
    case favorited, unfavorited
    case liked, unliked
    /// The viewer's own review: 4–5 stars raise the category, 1–2 stars lower it.
    case reviewed(rating: Int)

    /// The base weights' multiplier: the evaluation's best row (×0, ×0.5, ×1 and ×2 were tried).
    public static let scale = 2.0

    public var weight: Double { self == .storeOpened ? baseWeight : baseWeight * Self.scale }

    /// The weight before `scale`; a store page's half open is not scaled (the evaluation does not model it).
    public var baseWeight: Double {
        switch self {
        case .storeOpened: return 0.5
        case .favorited: return 3
        case .unfavorited: return -3
        case .liked: return 1.5
        case .unliked: return -1.5
        case .reviewed(let rating):
            switch rating {
            case 5: return 2
            case 4: return 1
            case 3: return 0
            case 2: return -1.5
            default: return -3
            }
        }
    }
}

/// Records signals after the action they describe has been written. A signal that fails is logged and dropped:
/// the user's favorite, like or review stands whether or not the recommender heard of it.
public struct InterestSignals: Sendable {
    package let interests: InterestRepository
    package let visits: StoreVisits
    /// Where opens wait for their batch (nil: written at once, as the CLI's tools do).
    package let buffer: VisitBuffer?
    package let logger: Logger

    public init(interests: InterestRepository, visits: StoreVisits, buffer: VisitBuffer? = nil) {
        self.interests = interests
        self.visits = visits
        self.buffer = buffer
        logger = interests.database.logger
    }

    /// An open: into the buffer, or written now without one.
    private func opened(_ key: String, storeID: String, at now: Date) async throws {
        if let buffer {
            buffer.record(.init(viewer: key, storeID: storeID, at: now))
        } else {
            try await visits.record(viewer: key, storeID: storeID, at: now)
        }
    }

    public func record(_ signal: InterestSignal, viewer: Viewer, storeID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        do {
            if signal.weight != 0 {
                try await interests.signal(viewer: key, about: .store(storeID), weight: signal.weight, at: now)
            }
            if signal == .storeOpened { try await opened(key, storeID: storeID, at: now) }
        } catch {
            logger.warning(
                "interest signal not recorded", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    /// A review opened: its click is `InterestRepository.recordOpen`'s; here its store's visit.
    public func openedReview(viewer: Viewer, storeID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        do {
            try await opened(key, storeID: storeID, at: now)
        } catch {
            logger.warning("store visit not recorded", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    /// A signal about a comment's store (likes).
    public func record(_ signal: InterestSignal, viewer: Viewer, commentID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        do {
            try await interests.signal(viewer: key, about: .comment(commentID), weight: signal.weight, at: now)
        } catch {
            logger.warning(
                "interest signal not recorded", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }
}

extension InterestRepository {
    /// What a signal is about: a store, or a comment (its store's category is the same).
    package enum Subject: Sendable {
        case store(String)
        case comment(String)
    }

    /// Adds `weight` to the viewer's interest in the subject's category, decayed like a click; never below zero.
    package func signal(viewer: String, about subject: Subject, weight: Double, at now: Date) async throws {
        var (storeID, commentID): (String?, String?) = (nil, nil)
        switch subject {
        case .store(let id): storeID = id
        case .comment(let id): commentID = id
        }
        try await database.query(
            """
            INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
            SELECT \(viewer), k.category_id, greatest(0, \(weight)::float8), \(now)::timestamptz, 0
            FROM (
                SELECT s.category_id FROM stores s WHERE s.id = \(storeID)::text
                UNION ALL
                SELECT c.category_id FROM comments c WHERE c.id = \(commentID)::text
            ) k
            ON CONFLICT (viewer, category_id) DO UPDATE SET
                score = greatest(0, i.score * power(0.5,
                    greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / \(halfLife)::float8)
                    + \(weight)::float8),
                score_at = greatest(i.score_at, EXCLUDED.score_at)
            """)
    }

    /// Gives a visitor's history to the account they signed up or signed in as, on the same device: interests
    /// are decayed to `now` and added, opens and exploration counts joined; the visitor's rows are gone after.
    public func merge(visitor: String, intoUser userID: String, at now: Date) async throws {
        let (from, to) = ("v:\(visitor)", "u:\(userID)")
        let logger = database.logger
        try await database.transaction { connection in
            try await connection.rows(
                """
                INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
                SELECT \(to), v.category_id, v.score * power(0.5,
                        greatest(0, extract(epoch FROM \(now)::timestamptz - v.score_at)) / \(halfLife)::float8),
                    greatest(v.score_at, \(now)::timestamptz), v.clicks
                FROM viewer_interests v WHERE v.viewer = \(from)
                ORDER BY v.category_id
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    score = i.score * power(0.5,
                        greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / \(halfLife)::float8)
                        + EXCLUDED.score,
                    score_at = greatest(i.score_at, EXCLUDED.score_at),
                    clicks = i.clicks + EXCLUDED.clicks
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO viewer_opens AS o (viewer, comment_id, opened_at)
                SELECT \(to), comment_id, opened_at FROM viewer_opens WHERE viewer = \(from) ORDER BY comment_id
                ON CONFLICT (viewer, comment_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
                SELECT \(to), store_id, opened_at FROM viewer_store_opens WHERE viewer = \(from) ORDER BY store_id
                ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO viewer_covisits (viewer, a, b, at)
                SELECT \(to), a, b, at FROM viewer_covisits WHERE viewer = \(from) ORDER BY a, b
                ON CONFLICT DO NOTHING
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO viewer_explore AS e (viewer, category_id, shown, clicked, pending_at, updated_at)
                SELECT \(to), category_id, shown, clicked, pending_at, updated_at FROM viewer_explore
                WHERE viewer = \(from) ORDER BY category_id
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    shown = e.shown + EXCLUDED.shown, clicked = e.clicked + EXCLUDED.clicked,
                    pending_at = greatest(e.pending_at, EXCLUDED.pending_at),
                    updated_at = greatest(e.updated_at, EXCLUDED.updated_at)
                """, logger: logger)
            try await connection.rows("DELETE FROM viewer_interests WHERE viewer = \(from)", logger: logger)
            try await connection.rows("DELETE FROM viewer_opens WHERE viewer = \(from)", logger: logger)
            try await connection.rows("DELETE FROM viewer_store_opens WHERE viewer = \(from)", logger: logger)
            try await connection.rows("DELETE FROM viewer_covisits WHERE viewer = \(from)", logger: logger)
            try await connection.rows("DELETE FROM viewer_explore WHERE viewer = \(from)", logger: logger)
        }
    }
}
