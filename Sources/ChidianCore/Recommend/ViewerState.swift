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

    package static func shown(_ scores: [(String, Double)]) -> [String] {
        let top = scores.map(\.1).max() ?? 0
        return scores.filter { $0.1 >= max(shownScore, relativeShown * top) }.map(\.0)
    }

    static let shownScore = 0.5
    static let relativeShown = 0.5
}

extension InterestRepository {
    /// The viewer's state in one statement (nobody: everyone's counts alone).
    public func state(viewer: String?, at now: Date) async throws -> ViewerState {
        // Nobody's state has no scores and nothing explored, so no time in it: one piece for every anonymous
        // request, under the tags of everyone's rows (building it from them was a thirtieth of a pick).
        if viewer == nil, let cache {
            return try await cache.entry(
                "state:nobody", tags: { _ in ["categories", "explore", "kr"] },
                cost: { 160 * ($0.arms.count + $0.interests.count) + 96 * $0.names.count },
                load: { state(try await stateRows(viewer: nil), at: now) }
            ).value
        }
        return state(try await stateRows(viewer: viewer), at: now)
    }

    func state(_ rows: [StateStatement.Row], at now: Date) -> ViewerState {
        var state = ViewerState(interests: [], arms: [], names: [:])
        for row in rows {
            if let score = row.score, let scoreAt = row.scoreAt {
                let decayed = Decay.decayed(score, from: scoreAt, to: now, halfLife: halfLife)
                if decayed > Decay.threshold {
                    state.interests.append(
                        Interest(categoryID: row.id, categoryName: row.name, score: decayed, clicks: row.clicks))
                }
            }
            guard row.reviewed else { continue }
            let fade = row.exploredAt.map { Decay.decayed(1, from: $0, to: now, halfLife: halfLife) } ?? 1
            state.names[row.id] = row.name
            state.arms.append(
                Exploration.Arm(
                    categoryID: row.id, shown: row.shown * fade, clicked: row.clicked * fade,
                    globalShown: row.globalShown, globalClicked: row.globalClicked))
        }
        state.interests.sort { ($0.score, $1.categoryID) > ($1.score, $0.categoryID) }
        state.arms.sort { $0.categoryID < $1.categoryID }
        return state
    }

    /// The viewer's interests as `interests(viewer:at:)` gives them, from the cached state when there is a cache
    /// (its interests are every category's, decayed and ordered alike: `ViewerStateCacheTests`).
    package func currentInterests(viewer: String, at now: Date) async throws -> [Interest] {
        guard cache != nil else { return try await interests(viewer: viewer, at: now) }
        return try await state(viewer: viewer, at: now).interests
    }

    /// `StateStatement`'s rows: with the cache, everyone's part from its cached piece (issue #45; migration 037's
    /// tags) and the viewer's own rows from `OwnStatement` (none for nobody), merged as the statement joins them.
    func stateRows(viewer: String?) async throws -> [StateStatement.Row] {
        guard let cache else {
            guard let viewer else { return try await database.run(EveryoneStatement()) }
            return try await database.run(StateStatement(viewer: viewer))
        }
        let everyoneTags = ["categories", "explore", "kr"]
        let everyone = { @Sendable () async throws -> [StateStatement.Row] in
            try await cache.entry(
                "state:everyone", tags: { _ in everyoneTags }, cost: { 160 * $0.count },
                load: { try await database.run(EveryoneStatement()) }
            ).value
        }
        guard let viewer else { return try await everyone() }
        // The merge kept too, under both parts' tags: a signed-in page merged the same rows on every request.
        return try await cache.entry(
            "vsm:" + viewer, tags: { _ in ["vs:" + viewer] + everyoneTags }, cost: { 160 * $0.count },
            load: {
                // The viewer's own rows: a piece of their own (migration 040 tells vs:<viewer> of every row written).
                let own = try await cache.entry(
                    "vs:" + viewer, tags: { _ in ["vs:" + viewer] }, cost: { 64 + 96 * $0.count },
                    load: { try await database.run(OwnStatement(viewer: viewer)) }
                ).value
                return Self.merge(try await everyone(), own: own)
            }
        ).value
    }

    /// Everyone's rows with the viewer's own interests and explorations in place.
    static func merge(_ everyone: [StateStatement.Row], own: [OwnStatement.Row]) -> [StateStatement.Row] {
        var interests: [String: OwnStatement.Row] = [:]
        var explored: [String: OwnStatement.Row] = [:]
        for row in own {
            if row.explore { explored[row.categoryID] = row } else { interests[row.categoryID] = row }
        }
        guard !interests.isEmpty || !explored.isEmpty else { return everyone }
        return everyone.map { shared in
            var row = shared
            if let interest = interests[row.id] {
                (row.score, row.scoreAt, row.clicks) = (interest.score, interest.scoreAt, interest.clicks)
            }
            if let explore = explored[row.id] {
                (row.shown, row.clicked, row.exploredAt) = (explore.shown, explore.clicked, explore.exploredAt)
            }
            return row
        }
    }

    /// The viewer's own rows of `StateStatement`: interests (`explore` false) and exploration counts.
    struct OwnStatement: PostgresPreparedStatement {
        static let name = "viewer_state_own"
        static let sql = """
            SELECT false, i.category_id, i.score, i.score_at, i.clicks, 0::float8, 0::float8, NULL::timestamptz
            FROM viewer_interests i WHERE i.viewer = $1
            UNION ALL
            SELECT true, e.category_id, NULL, NULL, 0, e.shown, e.clicked, e.updated_at
            FROM viewer_explore e WHERE e.viewer = $1
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        var viewer: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(viewer)
            return bindings
        }

        struct Row {
            var explore: Bool
            var categoryID: String
            var score: Double?
            var scoreAt: Date?
            var clicks: Int
            var shown: Double
            var clicked: Double
            var exploredAt: Date?
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (explore, categoryID, score, scoreAt, clicks, shown, clicked, exploredAt) = try row.decodeAll(
                (Bool, String, Double?, Date?, Int, Double, Double, Date?).self)
            return Row(
                explore: explore, categoryID: categoryID, score: score, scoreAt: scoreAt, clicks: clicks, shown: shown,
                clicked: clicked, exploredAt: exploredAt)
        }
    }

    /// `StateStatement` for nobody: everyone's counts without the viewer's joins. Bound to NULL, the viewer's `$1`
    /// let every custom plan fold those joins away and look cheaper than the generic one, so each anonymous pick
    /// and feed page without the cache planned it again (bind 1.3 ms against 1.0 ms of work under load).
    struct EveryoneStatement: PostgresPreparedStatement {
        package static let name = "viewer_state_everyone"
        package static let sql = """
            SELECT k.id, k.name, NULL::float8, NULL::timestamptz, 0,
                0::float8, 0::float8, NULL::timestamptz, \(StateStatement.everyoneColumns)
            FROM categories k
            \(StateStatement.everyoneJoin)
            """
        static let bindingDataTypes: [PostgresDataType] = []

        func makeBindings() throws -> PostgresBindings { PostgresBindings() }

        func decodeRow(_ row: PostgresRow) throws -> StateStatement.Row { try StateStatement.decode(row) }
    }

    /// Every category with the viewer's interest and exploration counts, everyone's, and whether it has reviews
    /// to show. Prepared: every first page of the feed and every pick runs it.
    struct StateStatement: PostgresPreparedStatement {
        package static let name = "viewer_state"
        package static let sql = """
            SELECT k.id, k.name, i.score, i.score_at, coalesce(i.clicks, 0),
                coalesce(e.shown, 0), coalesce(e.clicked, 0), e.updated_at, \(everyoneColumns)
            FROM categories k
            LEFT JOIN viewer_interests i ON i.viewer = $1 AND i.category_id = k.id
            LEFT JOIN viewer_explore e ON e.viewer = $1 AND e.category_id = k.id
            \(everyoneJoin)
            """
        /// Everyone's part, shared with `EveryoneStatement`: the global counts and whether the category has reviews.
        static let everyoneColumns = """
            coalesce(g.shown, 0)::int8, coalesce(g.clicked, 0)::int8,
                EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id AND c.kind = 'review'
                    AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended)
            """
        static let everyoneJoin = """
            LEFT JOIN (SELECT category_id, sum(shown) AS shown, sum(clicked) AS clicked FROM category_explore
                GROUP BY category_id) g ON g.category_id = k.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        package var viewer: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(viewer)
            return bindings
        }

        package struct Row: Sendable {
            package var id: String
            package var name: String
            package var score: Double?
            var scoreAt: Date?
            package var clicks: Int
            package var shown: Double
            package var clicked: Double
            var exploredAt: Date?
            package var globalShown: Int
            package var globalClicked: Int
            package var reviewed: Bool
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try Self.decode(row) }

        static func decode(_ row: PostgresRow) throws -> Row {
            let (id, name, score, scoreAt, clicks, shown, clicked, exploredAt, globalShown, globalClicked, reviewed) =
                try row.decodeAll((String, String, Double?, Date?, Int, Double, Double, Date?, Int, Int, Bool).self)
            return Row(
                id: id, name: name, score: score, scoreAt: scoreAt, clicks: clicks, shown: shown, clicked: clicked,
                exploredAt: exploredAt, globalShown: globalShown, globalClicked: globalClicked, reviewed: reviewed)
        }
    }
}
