import Foundation

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

    init(cell: PlaceCell, read: [String: StoreScore]) {
        self.cell = cell
        var ratings: [Double] = [], favorites: [Int32] = []
        ratings.reserveCapacity(cell.count)
        favorites.reserveCapacity(cell.count)
        for id in cell.ids {
            let score = read[id]
            ratings.append(score?.ratingScore ?? .nan)
            favorites.append(Int32(clamping: score?.favoriteCount ?? 0))
        }
        self.ratings = ratings
        self.favorites = favorites
    }

    var cost: Int { 128 + cell.count * 12 }
}

extension PlaceCells {
    /// The cells under `keys` with their score columns, in order, each pair read by one `gk:` look (a pair holds its
    /// cell); the rest through `cells` and `scores(of:keys:)`. nil when the cache does not serve. A pick's walk looked
    /// each cell up twice, and a look is several cache misses.
    func scoredCells(_ keys: [Int64]) async throws -> [CellScores]? {
        guard let found = cache.getAll(keys.map { "gk:\($0)" }, as: CellScores.self) else { return nil }
        var scored = found.map { $0?.value }
        let missing = keys.indices.filter { scored[$0] == nil }
        guard !missing.isEmpty else { return scored.map { $0! } }
        let missingKeys = missing.map { keys[$0] }
        guard let cells = try await cells(missingKeys), let read = try await scores(of: cells, keys: missingKeys)
        else { return nil }
        for (index, columns) in zip(missing, read) { scored[index] = columns }
        return scored.map { $0! }
    }

    /// The score columns of `cells` (under `keys`, their grid numbers), in order: cached ones that follow the same
    /// cell object, and the rest in one statement on the primary; nil when the cache does not serve.
    func scores(of cells: [PlaceCell], keys: [Int64]) async throws -> [CellScores]? {
        guard let found = cache.getAll(keys.map { "gk:\($0)" }, as: CellScores.self) else { return nil }
        var scores = zip(found, cells).map { entry, cell in entry.flatMap { $0.value.cell === cell ? $0.value : nil } }
        let missing = scores.indices.filter { scores[$0] == nil }
        guard !missing.isEmpty else { return scores.map { $0! } }
        let ticket = cache.ticket()
        // The stores' scores by id (`PlaceCells.Scores`, as `k:<id>` reads them), laid out in each cell's order.
        let read = Dictionary(
            try await ReadRouting.$floor.withValue(nil) {
                try await database.run(Scores(ids: missing.flatMap { cells[$0].ids }))
            }, uniquingKeysWith: { first, _ in first })
        // Kept only for a cell still the grid's after the ticket (`scoredCells` reads the cell through its columns):
        // one dropped before the ticket is not, and a drop after it stops the insert.
        let current = cache.getAll(missing.map { "g:\(keys[$0])" }, as: PlaceCell.self)
        for (at, index) in missing.enumerated() {
            let key = keys[index]
            let columns = CellScores(cell: cells[index], read: read)
            if current?[at]?.value === cells[index] {
                cache.insert(
                    "gk:\(key)", ReadCache.Entry(value: columns, json: [], etag: ""), tags: ["gk:\(key)", "g:\(key)"],
                    cost: columns.cost, since: ticket)
            }
            scores[index] = columns
        }
        return scores.map { $0! }
    }
}
