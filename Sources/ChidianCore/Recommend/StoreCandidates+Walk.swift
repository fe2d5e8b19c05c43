import Foundation
import PostgresNIO

/// The pick's candidates composed in memory (issue #45): the pool from the near-me walk of cached cells, each
/// store's rating and favorites from its cached score (`PlaceCells.scores`), and what the viewer's history says
/// from one small statement (none for a viewer without a key): the same candidates `qualifying` reads.
extension StoreCandidates {
    /// What a viewer's history says of stores.
    package struct Evidence: Sendable, Equatable {
        /// Viewers each store shares with the viewer's recent and favorite stores.
        package var related: [String: Int] = [:]
        package var favorites: Set<String> = []
        /// Reviewed in the last 30 days: never a candidate.
        package var reviewed: Set<String> = []
    }

    /// The viewer's evidence (`evidence`'s three parts), or nothing without a viewer key or user.
    package func evidence(for viewer: Viewer) async throws -> Evidence {
        guard viewer.key != nil || viewer.userID != nil else { return Evidence() }
        var evidence = Evidence()
        for row in try await database.forReads.run(EvidenceStatement(viewer: viewer)) {
            switch row.part {
            case 0: evidence.related[row.id] = row.covisits
            case 1: evidence.favorites.insert(row.id)
            default: evidence.reviewed.insert(row.id)
            }
        }
        return evidence
    }

    /// `qualifying`'s candidates from the walk; nil when it does not answer (no `near`, a price filter, the cells
    /// not serving), and the statement does.
    package func walked(_ filter: StoreFilter, for viewer: Viewer, stores: StoreRepository) async throws
        -> [Candidate]?
    {
        guard filter.maxPrice == nil, filter.ids == nil, let near = filter.near, stores.cache != nil,
            PlaceGrid.walks(around: near.point, radius: near.radius)
        else { return nil }
        let evidence = try await evidence(for: viewer)
        guard
            let pool = try await stores.walkNearest(
                near: near, categoryID: filter.categoryID, openAt: filter.openAt,
                skip: Set(filter.skip).union(evidence.reviewed), keep: Self.pickLimit)
        else { return nil }
        guard let scores = try await stores.places?.scores(pool.map(\.id)) else { return nil }
        // A store archived since its cell was read drops out, as the statement would not have read it.
        return pool.compactMap { walked in
            scores[walked.id].map { score in
                Candidate(
                    id: walked.id, categoryID: score.categoryID, ratingScore: score.ratingScore,
                    favoriteCount: score.favoriteCount, distance: walked.meters,
                    covisits: evidence.related[walked.id] ?? 0, favorited: evidence.favorites.contains(walked.id),
                    reviewedLately: false)
            }
        }
    }

    /// 猜你喜欢's pool near a position from the walk: the nearest `StoreFeed.nearest` live stores in the radius
    /// and the viewer's related stores in it, as `Near` reads them; nil when the walk does not answer.
    package func walkedForYou(near: NearQuery, for viewer: Viewer, stores: StoreRepository) async throws
        -> [Candidate]?
    {
        guard stores.cache != nil, PlaceGrid.walks(around: near.point, radius: near.radius) else { return nil }
        let evidence = try await evidence(for: viewer)
        guard
            let nearest = try await stores.walkNearest(
                near: near, categoryID: nil, openAt: nil, keep: StoreFeed.nearest)
        else { return nil }
        let measured = Dictionary(nearest.map { ($0.id, $0.meters) }, uniquingKeysWith: { first, _ in first })
        let related = evidence.related.keys.filter { measured[$0] == nil }.sorted()
        let ids = nearest.map(\.id) + related
        guard let scores = try await stores.places?.scores(ids) else { return nil }
        return ids.compactMap { id -> Candidate? in
            guard let score = scores[id] else { return nil }
            let distance: Double
            if let meters = measured[id] {
                distance = meters
            } else {
                guard let location = score.location else { return nil }
                distance = PlaceGrid.meters(from: near.point, lat: location.lat, lng: location.lng)
                guard distance <= Double(near.radius) else { return nil }
            }
            return Candidate(
                id: id, categoryID: score.categoryID, ratingScore: score.ratingScore,
                favoriteCount: score.favoriteCount, distance: distance, covisits: evidence.related[id] ?? 0,
                favorited: evidence.favorites.contains(id), reviewedLately: evidence.reviewed.contains(id))
        }
    }

    /// `evidence`'s parts as rows: 0 related (with its co-visits), 1 favorite, 2 reviewed lately.
    struct EvidenceStatement: PostgresPreparedStatement {
        static let name = "viewer_evidence"
        static let sql =
            StoreCandidates.evidence + "\n"
                + """
                SELECT 0, r.id, r.covisits FROM related r
                UNION ALL SELECT 1, f.store_id, 0 FROM favorite f
                UNION ALL SELECT 2, v.store_id, 0 FROM reviewed v
                """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz]

        var viewer: Viewer

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(viewer.key)
            bindings.append(viewer.userID)
            bindings.append(viewer.since)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (part: Int, id: String, covisits: Int) {
            let (part, id, covisits) = try row.decodeAll((Int32, String, Int32).self)
            return (Int(part), id, Int(covisits))
        }
    }
}
