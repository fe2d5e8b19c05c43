import Foundation
import PostgresNIO

/// The pick's candidates composed in memory (issue #45): the pool from the near-me walk of cached cells, each
/// store's rating and favorites from its cached score (`PlaceCells.scores`), and what the viewer's history says
/// from one small statement (none for a viewer without a key): the same candidates `qualifying` reads.
extension StoreCandidates {
    /// `qualifying`'s candidates from the walk; nil when it does not answer (no `near`, a price filter, the cells
    /// not serving), and the statement does.
    package func walked(_ filter: StoreFilter, for viewer: Viewer, stores: StoreRepository) async throws
        -> [Candidate]?
    {
        guard filter.maxPrice == nil, filter.ids == nil, let near = filter.near, stores.cache != nil,
            PlaceGrid.walks(around: near.point, radius: near.radius)
        else { return nil }
        let evidence = try await evidence(for: viewer, cache: stores.cache)
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
        let evidence = try await evidence(for: viewer, cache: stores.cache)
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
}
