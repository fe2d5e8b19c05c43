import Foundation
import PostgresNIO

/// What ranking weighs of one cell's stores beside their place, as columns beside the cell's own: cached under
/// `gk:<cell>`, which migration 043 sends when a store of the cell changes its rating or favourites, and under the
/// cell's `g:<cell>`. A pick's hundred candidates then read a few of these by index instead of a hundred `k:` entries
/// (each an LRU hit of about seven cache misses, 15 % of a pick), and 200,000 stores' scores fit in 2.4 MB.
package final class CellScores: Sendable {
    /// The cell these columns follow, index for index: a cell read again (a store moved in) is another object, and
    /// the scores are read again for it.
    let cell: PlaceCell
    /// `rating_score` of each store; NaN for a store archived since the cell was read (it drops out, as the statement
    /// would not read it).
    let ratings: [Double]
    let favorites: [Int32]

    init(cell: PlaceCell, read: [String: (rating: Double, favorites: Int32)]) {
        self.cell = cell
        var ratings: [Double] = [], favorites: [Int32] = []
        ratings.reserveCapacity(cell.count)
        favorites.reserveCapacity(cell.count)
        for id in cell.ids {
            let score = read[id]
            ratings.append(score?.rating ?? .nan)
            favorites.append(score?.favorites ?? 0)
        }
        self.ratings = ratings
        self.favorites = favorites
    }

    var cost: Int { 128 + cell.count * 12 }
}

extension PlaceCells {
    /// The score columns of `cells` (under `keys`, their grid numbers), in order: cached ones that follow the same
    /// cell object, and the rest in one statement on the primary; nil when the cache does not serve.
    func scores(of cells: [PlaceCell], keys: [Int64]) async throws -> [CellScores]? {
        guard let found = cache.getAll(keys.map { "gk:\($0)" }, as: CellScores.self) else { return nil }
        var scores = zip(found, cells).map { entry, cell in entry.flatMap { $0.value.cell === cell ? $0.value : nil } }
        let missing = scores.indices.filter { scores[$0] == nil }
        guard !missing.isEmpty else { return scores.map { $0! } }
        let ticket = cache.ticket()
        let rows = try await ReadRouting.$floor.withValue(nil) {
            try await database.run(LoadScores(cells: missing.map { keys[$0] }))
        }
        var byCell: [Int64: [String: (rating: Double, favorites: Int32)]] = [:]
        for row in rows { byCell[row.cell, default: [:]][row.id] = (row.rating, row.favorites) }
        for index in missing {
            let key = keys[index]
            let read = CellScores(cell: cells[index], read: byCell[key] ?? [:])
            cache.insert(
                "gk:\(key)", ReadCache.Entry(value: read, json: [], etag: ""), tags: ["gk:\(key)", "g:\(key)"],
                cost: read.cost, since: ticket)
            scores[index] = read
        }
        return scores.map { $0! }
    }

    struct ScoreRow {
        let cell: Int64
        let id: String
        let rating: Double
        let favorites: Int32
    }

    /// The live stores' scores of some cells, by the expression index `stores_place_cell`.
    struct LoadScores: PostgresPreparedStatement {
        static let name = "place_cell_scores"
        static let sql = """
            SELECT place_cell(s.location), s.id, s.rating_score, s.favorite_count
            FROM stores s
            WHERE place_cell(s.location) = ANY($1::bigint[]) AND s.archived_at IS NULL
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8Array]

        var cells: [Int64]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(cells)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> ScoreRow {
            let (cell, id, rating, favorites) = try row.decodeAll((Int64, String, Double, Int32).self)
            return ScoreRow(cell: cell, id: id, rating: rating, favorites: favorites)
        }
    }
}
