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

    /// Categories the viewer has not shown a taste for: less interest than half an open (one open a half-life
    /// ago) and than half their top category's. The second keeps a category that lost to another by a few clicks
    /// (the feed only ever showed the leader) in the running.
    public func unshown(excluding: Set<String> = []) -> [Exploration.Arm] {
        let known = Set(ViewerState.shown(interests.map { ($0.categoryID, $0.score) }))
        return arms.filter { !known.contains($0.categoryID) && !excluding.contains($0.categoryID) }
    }

    static func shown(_ scores: [(String, Double)]) -> [String] {
        let top = scores.map(\.1).max() ?? 0
        return scores.filter { $0.1 >= max(shownScore, relativeShown * top) }.map(\.0)
    }

    static let shownScore = 0.5
    static let relativeShown = 0.5
}

extension InterestRepository {
    /// The viewer's state in one statement (nobody: everyone's counts alone).
    public func state(viewer: String?, at now: Date) async throws -> ViewerState {
        let rows = try await database.query(
            """
            SELECT k.id, k.name, i.score, i.score_at, coalesce(i.clicks, 0),
                coalesce(e.shown, 0), coalesce(e.clicked, 0), e.updated_at,
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
            let (id, name, score, scoreAt, clicks, shown, clicked, exploredAt, globalShown, globalClicked, reviewed) =
                try row.decodeAll((String, String, Double?, Date?, Int, Double, Double, Date?, Int, Int, Bool).self)
            let fade = exploredAt.map { Decay.decayed(1, from: $0, to: now, halfLife: halfLife) } ?? 1
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
                    categoryID: id, shown: shown * fade, clicked: clicked * fade, globalShown: globalShown,
                    globalClicked: globalClicked))
        }
        state.interests.sort { ($0.score, $1.categoryID) > ($1.score, $0.categoryID) }
        state.arms.sort { $0.categoryID < $1.categoryID }
        return state
    }

    /// Counts what a first page showed: `places` places of the viewer's own top category and one place of each
    /// category explored (everyone's counts take those), decaying the viewer's earlier counts to now; opens of
    /// their reviews within a day count as clicks (`RecordOpen`). Statistics, not the user's data: committed
    /// without waiting for the disk, so the feed does not wait on a flush.
    public func recordShown(viewer: String, own: String?, places: Int, explored: [String], at now: Date) async throws {
        guard own != nil || !explored.isEmpty else { return }
        let shard = Exploration.shard(viewer)
        try await database.query(
            """
            WITH quick AS (SELECT set_config('synchronous_commit', 'off', true)),
            shown AS (
                INSERT INTO viewer_explore AS e (viewer, category_id, shown, clicked, exploring, pending_at, updated_at)
                SELECT \(viewer), k.id, CASE WHEN k.id = \(own)::text THEN \(places)::int ELSE 1 END, 0,
                    k.id IS DISTINCT FROM \(own)::text, \(now)::timestamptz, \(now)::timestamptz
                FROM categories k, quick
                WHERE k.id = ANY(\(explored)::text[]) OR k.id = \(own)::text
                ORDER BY k.id
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    shown = e.shown * power(0.5,
                        greatest(0, extract(epoch FROM EXCLUDED.updated_at - e.updated_at)) / \(halfLife)::float8)
                        + EXCLUDED.shown,
                    clicked = e.clicked * power(0.5,
                        greatest(0, extract(epoch FROM EXCLUDED.updated_at - e.updated_at)) / \(halfLife)::float8),
                    exploring = EXCLUDED.exploring, pending_at = EXCLUDED.pending_at,
                    updated_at = greatest(e.updated_at, EXCLUDED.updated_at)
                RETURNING category_id, exploring
            )
            INSERT INTO category_explore AS g (category_id, shard, shown, clicked)
            SELECT category_id, \(shard), 1, 0 FROM shown WHERE exploring ORDER BY category_id
            ON CONFLICT (category_id, shard) DO UPDATE SET shown = g.shown + 1
            """)
    }
}
