import Foundation
import PostgresNIO

/// The pick's candidates composed in memory (issue #45): the pool from the near-me walk of cached cells, each
/// store's rating and favorites from its cell's score columns (`CellScores`), and what the viewer's history says
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
                skip: Set(filter.skip).union(evidence.reviewed), keep: Self.pickLimit, scored: true)
        else { return nil }
        return pool.map { walked in
            Candidate(
                id: walked.id, categoryID: walked.categoryID, ratingScore: walked.rating,
                favoriteCount: walked.favorites, distance: walked.meters, covisits: evidence.related[walked.id] ?? 0,
                favorited: evidence.favorites.contains(walked.id), reviewedLately: false)
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
                near: near, categoryID: nil, openAt: nil, keep: StoreFeed.nearest, scored: true)
        else { return nil }
        let walked = Set(nearest.map(\.id))
        // Related stores outside the nearest: their scores and places by id, kept within the radius.
        let related = evidence.related.keys.filter { !walked.contains($0) }.sorted()
        guard let places = stores.places, let scores = try await relatedScores(evidence, for: viewer, places: places)
        else { return nil }
        let pool = nearest.map { walked in
            Candidate(
                id: walked.id, categoryID: walked.categoryID, ratingScore: walked.rating,
                favoriteCount: walked.favorites, distance: walked.meters, covisits: evidence.related[walked.id] ?? 0,
                favorited: evidence.favorites.contains(walked.id), reviewedLately: evidence.reviewed.contains(walked.id)
            )
        }
        return pool
            + related.compactMap { id -> Candidate? in
                guard let score = scores[id], let location = score.location else { return nil }
                let distance = PlaceGrid.meters(from: near.point, lat: location.lat, lng: location.lng)
                guard distance <= Double(near.radius) else { return nil }
                return Candidate(
                    id: id, categoryID: score.categoryID, ratingScore: score.ratingScore,
                    favoriteCount: score.favoriteCount, distance: distance, covisits: evidence.related[id] ?? 0,
                    favorited: evidence.favorites.contains(id), reviewedLately: evidence.reviewed.contains(id))
            }
    }
}
