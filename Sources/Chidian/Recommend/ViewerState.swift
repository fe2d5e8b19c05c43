import Foundation
import PostgresNIO

/// What the recommender knows of one viewer when it ranks for them: interests decayed to now, and per category
/// with reviews to show, the exploration counts (theirs and everyone's).
public struct ViewerState: Sendable {
    public var interests: [InterestRepository.Interest]
    public var arms: [Exploration.Arm]
    /// Every category with reviews to show, id → name.
    public var names: [String: String]

    /// A viewer with no interest above the threshold: cold start.
    public var isCold: Bool { interests.isEmpty }

    /// Categories the viewer has not shown a taste for: less than half an open's worth of interest (one open a
    /// half-life ago).
    public func unshown(excluding: Set<String> = []) -> [Exploration.Arm] {
        let known = Set(interests.filter { $0.score >= ViewerState.shownScore }.map(\.categoryID))
        return arms.filter { !known.contains($0.categoryID) && !excluding.contains($0.categoryID) }
    }

    static let shownScore = 0.5
}

extension InterestRepository {
    /// The viewer's state in one statement (nobody: everyone's counts alone).
    public func state(viewer: String?, at now: Date) async throws -> ViewerState {
        let rows = try await database.query(
            """
            SELECT k.id, k.name, i.score, i.score_at, coalesce(i.clicks, 0),
                coalesce(e.shown, 0), coalesce(e.clicked, 0),
                coalesce((SELECT sum(g.shown) FROM category_explore g WHERE g.category_id = k.id), 0)::int8,
                coalesce((SELECT sum(g.clicked) FROM category_explore g WHERE g.category_id = k.id), 0)::int8,
                EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id AND c.kind = 'review'
                    AND c.hidden_at IS NULL AND NOT c.store_archived)
            FROM categories k
            LEFT JOIN viewer_interests i ON i.viewer = \(viewer) AND i.category_id = k.id
            LEFT JOIN viewer_explore e ON e.viewer = \(viewer) AND e.category_id = k.id
            """)
        var state = ViewerState(interests: [], arms: [], names: [:])
        for row in rows {
            let (id, name, score, scoreAt, clicks, shown, clicked, globalShown, globalClicked, reviewed) =
                try row.decodeAll((String, String, Double?, Date?, Int, Int, Int, Int, Int, Bool).self)
            if let score, let scoreAt {
                let decayed = Decay.decayed(score, from: scoreAt, to: now, halfLife: halfLife)
                if decayed > Decay.threshold {
                    state.interests.append(
                        Interest(categoryID: id, categoryName: name, score: decayed, clicks: clicks))
                }
            }
            guard reviewed else { continue }
            state.names[id] = name
            state.arms.append(
                Exploration.Arm(
                    categoryID: id, shown: shown, clicked: clicked, globalShown: globalShown,
                    globalClicked: globalClicked))
        }
        state.interests.sort { ($0.score, $1.categoryID) > ($1.score, $0.categoryID) }
        state.arms.sort { $0.categoryID < $1.categoryID }
        return state
    }

    /// Counts a showing of each category to explore for the viewer (and everyone's), marking it pending so the
    /// viewer's next open of one of its reviews within a day counts as its click. Statistics, not the user's
    /// data: committed without waiting for the disk, so the feed does not wait on a flush.
    public func recordShown(viewer: String, categories: [String], at now: Date) async throws {
        guard !categories.isEmpty else { return }
        let shard = Exploration.shard(viewer)
        try await database.query(
            """
            WITH quick AS (SELECT set_config('synchronous_commit', 'off', true)),
            shown AS (
                INSERT INTO viewer_explore AS e (viewer, category_id, shown, clicked, pending_at, updated_at)
                SELECT \(viewer), k.id, 1, 0, \(now)::timestamptz, \(now)::timestamptz FROM categories k, quick
                WHERE k.id = ANY(\(categories)::text[])
                ORDER BY k.id
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    shown = e.shown + 1, pending_at = EXCLUDED.pending_at, updated_at = EXCLUDED.updated_at
                RETURNING category_id
            )
            INSERT INTO category_explore AS g (category_id, shard, shown, clicked)
            SELECT category_id, \(shard), 1, 0 FROM shown ORDER BY category_id
            ON CONFLICT (category_id, shard) DO UPDATE SET shown = g.shown + 1
            """)
    }
}
