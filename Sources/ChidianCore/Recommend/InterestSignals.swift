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

/// Records signals after the action they describe has been written: into the server's `SignalBuffer` (written
/// within `SIGNALS_FLUSH_SECONDS`), or at once without one (the CLI's tools, the tests' reference). A signal that
/// fails is logged and dropped: the user's favorite, like or review stands whether or not the recommender heard.
public struct InterestSignals: Sendable {
    package let interests: InterestRepository
    package let visits: StoreVisits
    /// Where signals wait for their batch (nil: written at once).
    package let buffer: SignalBuffer?
    package let logger: Logger

    public init(interests: InterestRepository, visits: StoreVisits, buffer: SignalBuffer? = nil) {
        self.interests = interests
        self.visits = visits
        self.buffer = buffer
        logger = interests.database.logger
    }

    private func write(_ event: ViewerEvent?, open: StoreVisits.Open?) async {
        do {
            if let buffer {
                if let event { buffer.record(event) }
                if let open { buffer.record(open) }
            } else {
                if let event { try await interests.apply([event]) }
                if let open { try await visits.record(viewer: open.viewer, storeID: open.storeID, at: open.at) }
            }
        } catch {
            logger.warning(
                "interest signal not recorded", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }

    public func record(_ signal: InterestSignal, viewer: Viewer, storeID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        let event =
            signal.weight == 0
            ? nil : ViewerEvent.signal(viewer: key, about: .store(storeID), weight: signal.weight, at: now)
        let open = signal == .storeOpened ? StoreVisits.Open(viewer: key, storeID: storeID, at: now) : nil
        await write(event, open: open)
    }

    /// A review opened: a click on its category (`InterestRepository.recordOpen`) and a visit of its store.
    public func openedReview(viewer: Viewer, commentID: String, storeID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        await write(
            .openedReview(viewer: key, commentID: commentID, at: now),
            open: .init(viewer: key, storeID: storeID, at: now))
    }

    /// A signal about a comment's store (likes).
    public func record(_ signal: InterestSignal, viewer: Viewer, commentID: String, at now: Date) async {
        guard let key = viewer.interestKey else { return }
        await write(.signal(viewer: key, about: .comment(commentID), weight: signal.weight, at: now), open: nil)
    }

    /// A visitor signed up or in on this device: their history joins the account's, after what they did before it
    /// (queued like the rest, so it lands after signals still on their way).
    package func merge(visitor: String, intoUser userID: String, at now: Date) async {
        await write(.merged(visitor: "v:\(visitor)", into: "u:\(userID)", at: now), open: nil)
    }

    /// Forgets the viewer's interests at once, and whatever of theirs is still on its way once it lands.
    package func reset(viewer key: String, at now: Date) async throws {
        try await interests.reset(viewer: key)
        buffer?.record(.reset(viewer: key, at: now))
    }

    /// What a mixed first page showed, place by place (sql/033, `shown`): each category's places weighed by how
    /// likely each was looked at, so a skip counts as evidence where it was likely seen.
    package func shown(viewer key: String, places: [FeedPlanner.Place], at now: Date) async {
        guard !places.isEmpty else { return }
        await write(.page(viewer: key, showings: Showing.of(places), at: now), open: nil)
    }

    /// What a feed's first page showed: the viewer's and everyone's exploration counts (sql/027, `shown`).
    package func shown(viewer key: String, own: String?, places: Int, explored: [String], at now: Date) async {
        guard own != nil || !explored.isEmpty else { return }
        await write(.shown(viewer: key, own: own, places: places, explored: explored, at: now), open: nil)
    }
}

extension InterestRepository {
    /// What a signal is about: a store, or a comment (its store's category is the same).
    package enum Subject: Sendable, Equatable {
        case store(String)
        case comment(String)
    }
}
