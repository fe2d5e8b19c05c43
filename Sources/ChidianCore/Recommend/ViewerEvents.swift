import Foundation
import PostgresNIO

/// What a viewer did that their interests learn from, beside store opens (`StoreVisits.Open`): written by
/// `apply_viewer_events` (sql/027), one event at a time or a server's batch in one call, with the same effect.
package enum ViewerEvent: Sendable, Equatable {
    /// A review opened: a click on its category unless the viewer opened it under ten seconds ago.
    case openedReview(viewer: String, commentID: String, at: Date)
    /// An interest signal (favorite, like, own rating) about a store or a comment's store.
    case signal(viewer: String, about: InterestRepository.Subject, weight: Double, at: Date)
    /// A feed's first page: `places` of the viewer's own top category and one place per category explored.
    case shown(viewer: String, own: String?, places: Int, explored: [String], at: Date)
    /// A feed's first page as it is mixed now (issue #46): each category's places, weighed by how likely each was
    /// looked at (`FeedPlanner.examined`), and whether it was there to explore.
    case page(viewer: String, showings: [Showing], at: Date)
    /// A visitor (`v:…`) signed up or in as a user (`u:…`): the visitor's history joins the user's.
    case merged(visitor: String, into: String, at: Date)
    /// The viewer forgot their interests and opens.
    case reset(viewer: String, at: Date)

    package var viewer: String {
        switch self {
        case .openedReview(let viewer, _, _), .signal(let viewer, _, _, _), .shown(let viewer, _, _, _, _),
            .page(let viewer, _, _), .merged(let viewer, _, _), .reset(let viewer, _):
            viewer
        }
    }
}

/// One category's share of a first page (`ViewerEvent.page`).
package struct Showing: Sendable, Equatable {
    package var category: String
    package var weight: Double
    package var exploring: Bool

    package init(category: String, weight: Double, exploring: Bool) {
        self.category = category
        self.weight = weight
        self.exploring = exploring
    }

    /// A page's places (in order) as showings per category, in category order.
    package static func of(_ places: [FeedPlanner.Place]) -> [Showing] {
        var byCategory: [String: Showing] = [:]
        for (index, place) in places.enumerated() {
            byCategory[place.category, default: Showing(category: place.category, weight: 0, exploring: false)]
                .weight += FeedPlanner.examined(index)
            if place.exploring { byCategory[place.category]?.exploring = true }
        }
        return byCategory.values.sorted { $0.category < $1.category }
    }
}

/// Events as the columns of `viewer_event_queue` and the arrays of `apply_viewer_events` (sql/027); an empty
/// subject or list is none.
package struct ViewerEventColumns: Sendable {
    package var kinds: [String] = [], viewers: [String] = [], subjects: [String] = [], numbers: [Double] = []
    package var times: [Date] = [], lists: [String] = []

    package init(_ events: [ViewerEvent] = [], opens: [StoreVisits.Open] = []) {
        for event in events {
            switch event {
            case .openedReview(let viewer, let commentID, let at):
                append("open", viewer, commentID, 0, at, "")
            case .signal(let viewer, .store(let id), let weight, let at):
                append("store", viewer, id, weight, at, "")
            case .signal(let viewer, .comment(let id), let weight, let at):
                append("comment", viewer, id, weight, at, "")
            case .shown(let viewer, let own, let places, let explored, let at):
                append("shown", viewer, own ?? "", Double(places), at, explored.joined(separator: ","))
            case .page(let viewer, let showings, let at):
                let list = showings.map { "\($0.category):\($0.weight):\($0.exploring ? 1 : 0)" }
                append("shown", viewer, "", 0, at, list.joined(separator: ","))
            case .merged(let visitor, let user, let at):
                append("merge", visitor, user, 0, at, "")
            case .reset(let viewer, let at):
                append("reset", viewer, "", 0, at, "")
            }
        }
        for open in opens { append("visit", open.viewer, open.storeID, 0, open.at, "") }
    }

    private mutating func append(
        _ kind: String, _ viewer: String, _ subject: String, _ number: Double, _ at: Date, _ list: String
    ) {
        kinds.append(kind); viewers.append(viewer); subjects.append(subject); numbers.append(number)
        times.append(at); lists.append(list)
    }

    package var isEmpty: Bool { kinds.isEmpty }
}

extension InterestRepository {
    /// Applies `events` in the order they happened (each viewer's in order; see sql/027); returns how many review
    /// opens counted. `shard` is the row of everyone's exploration counts this call adds to.
    @discardableResult
    package func apply(_ events: [ViewerEvent], shard: Int16 = .random(in: 0..<16)) async throws -> Int {
        let c = ViewerEventColumns(events)
        guard !c.isEmpty else { return 0 }
        let rows = try await database.query(
            """
            SELECT apply_viewer_events(\(c.kinds)::text[], \(c.viewers)::text[], \(c.subjects)::text[],
                \(c.numbers)::float8[], \(c.times)::timestamptz[], \(c.lists)::text[],
                \(Self.dedupeWindow)::float8, \(halfLife)::float8, \(shard)::int2)
            """)
        return try rows.first?.decode(Int.self) ?? 0
    }
}
