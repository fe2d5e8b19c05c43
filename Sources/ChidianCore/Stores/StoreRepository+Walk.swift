import Foundation

/// Near me by distance composed in memory (issue #45): the grid's cells around the viewer, filtered and ordered as
/// `listQuery`'s statement does (the same sphere distance, ids in byte order), with the same cursor.
extension StoreRepository {
    /// A distance page's ids and the cursor after them from the cells; nil when the walk does not answer (no cells
    /// cache or it is not serving, a radius past `PlaceGrid.maxRadius`, or a price filter, which reviews move).
    func walkedPage(
        categoryID: String?, maxPrice: Int?, near: NearQuery, openNow: Bool, now: Date, page: PageRequest
    ) async throws -> (ids: [String], next: String?)? {
        guard maxPrice == nil, let places, let keys = PlaceGrid.cells(around: near.point, radius: near.radius) else {
            return nil
        }
        let list = StoreSort.distance.cursorList
        var after: (meters: Double, id: [UInt8])?
        if let cursor = try page.cursor?.keys(for: list, StoreSort.distance.cursorKeys) {
            guard let meters = Double(cursor[0]) else { throw CursorError.notIssued }
            after = (meters, Array(cursor[1].utf8))
        }
        guard let cells = try await places.cells(keys) else { return nil }
        let radius = Double(near.radius)
        var minutes: [String: Int] = [:]
        var found: [(meters: Double, id: String)] = []
        for cell in cells {
            for store in cell.stores {
                if let categoryID, store.categoryID != categoryID { continue }
                if openNow {
                    let minute =
                        minutes[store.zone]
                        ?? WeeklyHours.weekMinute(of: now, in: StoreTimeZone.zone(store.zone))
                    minutes[store.zone] = minute
                    guard store.isOpen(atWeekMinute: minute) else { continue }
                }
                let meters = PlaceGrid.meters(from: near.point, lat: store.lat, lng: store.lng)
                guard meters <= radius else { continue }
                if let after,
                    !(meters > after.meters
                        || (meters == after.meters && store.id.utf8.lexicographicallyPrecedes(after.id)))
                {
                    continue
                }
                found.append((meters, store.id))
            }
        }
        // Metres ascending, then id descending in byte order (`COLLATE "C"`), as the statement sorts.
        found.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $1.id.utf8.lexicographicallyPrecedes($0.id.utf8) }
        let limit = page.limit
        let next =
            found.count > limit
            ? Cursor(list: list, keys: [PlaceGrid.text(found[limit - 1].meters), found[limit - 1].id]).token : nil
        return (found.prefix(limit).map(\.id), next)
    }
}
