import Foundation

/// Near me composed in memory (issue #45): the grid's cells around the viewer, filtered and ordered as the
/// statements do (the same sphere distance, ids in byte order), for the distance list and the pick's pool.
extension StoreRepository {
    /// One store the walk found: metres from the point, its id and category; its rating and favourites when the
    /// walk was asked for them (`scored`).
    package struct Walked: Sendable, Equatable {
        package var meters: Double
        package var id: String
        package var categoryID: String
        package var rating = 0.0
        package var favorites = 0
    }

    /// A distance page's ids and the cursor after them from the cells; nil when the walk does not answer (no cells
    /// cache or it is not serving, a radius past `PlaceGrid.maxRadius`, or a price filter, which reviews move).
    func walkedPage(
        categoryID: String?, maxPrice: Int?, near: NearQuery, openNow: Bool, now: Date, page: PageRequest
    ) async throws -> (ids: [String], next: String?)? {
        guard maxPrice == nil else { return nil }
        let list = StoreSort.distance.cursorList
        var after: (meters: Double, id: [UInt8])?
        if let cursor = try page.cursor?.keys(for: list, StoreSort.distance.cursorKeys) {
            guard let meters = Double(cursor[0]) else { throw CursorError.notIssued }
            after = (meters, Array(cursor[1].utf8))
        }
        guard
            let best = try await walkNearest(
                near: near, categoryID: categoryID, openAt: openNow ? now : nil, after: after, keep: page.limit + 1)
        else { return nil }
        let limit = page.limit
        let next =
            best.count > limit
            ? Cursor(list: list, keys: [PlaceGrid.text(best[limit - 1].meters), best[limit - 1].id]).token : nil
        return (best.prefix(limit).map(\.id), next)
    }

    /// The nearest `keep` live stores within `near`'s radius that pass the filters (in `categoryID`, open at
    /// `openAt`, not in `skip`, after `after`), nearest first, ties by id descending in byte order; nil when the
    /// cells do not answer. `scored` reads each found store's rating and favourites from its cell's `CellScores`
    /// and leaves out a store archived since its cell was read.
    package func walkNearest(
        near: NearQuery, categoryID: String?, openAt: Date?, skip: Set<String> = [],
        after: (meters: Double, id: [UInt8])? = nil, keep: Int, scored: Bool = false
    ) async throws -> [Walked]? {
        guard let places, let nearest = PlaceGrid.nearestCells(around: near.point, radius: near.radius) else {
            return nil
        }
        // Scored, each cell comes with its score columns in one look.
        let cells: [PlaceCell]
        let scores: [CellScores]?
        if scored {
            guard let read = try await places.scoredCells(nearest.map(\.cell)) else { return nil }
            (cells, scores) = (read.map(\.cell), read)
        } else {
            guard let read = try await places.cells(nearest.map(\.cell)) else { return nil }
            (cells, scores) = (read, nil)
        }
        let radius = Double(near.radius)
        // The nearest so far as plain values (no strings: comparing and shifting them retained two ids each time).
        var best: [Found] = []
        best.reserveCapacity(keep + 1)
        func id(_ found: Found) -> String { cells[Int(found.cell)].ids[Int(found.row)] }
        // The statements' order: metres ascending, then id descending in byte order (`COLLATE "C"`).
        func precedes(_ a: Found, _ b: Found) -> Bool {
            a.meters != b.meters ? a.meters < b.meters : id(b).utf8.lexicographicallyPrecedes(id(a).utf8)
        }
        var minutes: [String: Int] = [:]
        let cosPoint = PlaceGrid.cosine(of: near.point.lat)
        for (cellIndex, (cell, bound)) in zip(cells, nearest).enumerated() {
            // Cells come nearest first: once `best` is full and a cell cannot hold anything nearer, none can.
            if best.count == keep, bound.atLeast > best[keep - 1].meters { break }
            // A cell without the category, or with nothing open at `openAt`, holds nothing to walk.
            var wanted: Int32?
            if let categoryID {
                guard let found = cell.categoryNames.firstIndex(of: categoryID) else { continue }
                wanted = Int32(found)
            }
            // Each (zone, schedule) of the cell open or not at `openAt` (a cell has one or two zones).
            let open = openAt.map { at in
                cell.openTable(at: at) { name in
                    if let minute = minutes[name] { return minute }
                    let minute = WeeklyHours.weekMinute(of: at, in: StoreTimeZone.zone(name))
                    minutes[name] = minute
                    return minute
                }
            }
            if let open, !open.contains(true) { continue }
            // The arrays once per cell (each read through the class would retain its array per store).
            let (ids, spots) = (cell.ids, cell.spots)
            for index in 0..<spots.count {
                let spot = spots[index]
                if let wanted, spot.category != wanted { continue }
                if let open, !open[Int(spot.slot)] { continue }
                let meters = PlaceGrid.meters(
                    from: near.point, cosPoint: cosPoint, lat: spot.lat, lng: spot.lng, cosLat: spot.cosLat)
                guard meters <= radius else { continue }
                if best.count == keep, meters > best[keep - 1].meters { continue }
                if let after, meters <= after.meters,
                    !(meters == after.meters && ids[index].utf8.lexicographicallyPrecedes(after.id))
                {
                    continue
                }
                let candidate = Found(meters: meters, cell: Int32(cellIndex), row: Int32(index))
                if best.count == keep, !precedes(candidate, best[keep - 1]) { continue }
                if !skip.isEmpty, skip.contains(ids[index]) { continue }
                var at = best.count
                while at > 0, precedes(candidate, best[at - 1]) { at -= 1 }
                best.insert(candidate, at: at)
                if best.count > keep { best.removeLast() }
            }
        }
        func walked(_ found: Found) -> Walked {
            let cell = cells[Int(found.cell)]
            return Walked(
                meters: found.meters, id: cell.ids[Int(found.row)],
                categoryID: cell.categoryNames[Int(cell.spots[Int(found.row)].category)])
        }
        guard let columns = scores else { return best.map(walked) }
        return best.compactMap { found in
            let column = columns[Int(found.cell)]
            guard !column.ratings[Int(found.row)].isNaN else { return nil }
            var scored = walked(found)
            scored.rating = column.ratings[Int(found.row)]
            scored.favorites = Int(column.favorites[Int(found.row)])
            return scored
        }
    }

    /// One store the walk keeps: metres from the point, and where it is (an index into the cells, its row there).
    private struct Found {
        var meters: Double
        var cell: Int32
        var row: Int32
    }
}
