import Foundation
import PostgresNIO
import Synchronization

/// One cell of `PlaceGrid`: its live stores with what near me filters on, cached under `g:<cell>` (migration 036
/// tells the cell when one of them moves, opens or closes for good, changes category, zone or hours). What a walk
/// reads of a store is packed in one array (`Spot`): the walk is bound by memory, and with a column per field each
/// store cost a cache miss per column (a tenth of a pick's time went to first touches of cells and columns).
package final class PlaceCell: Sendable {
    /// One store, as a fill reads it.
    package struct Store: Sendable {
        package let id: String
        package let lat: Double
        package let lng: Double
        package let categoryID: String
        package let zone: String
        /// `open_minutes` as [start, end) pairs, flat; nil without hours (never open now, as `@>` on NULL).
        package let open: [Int32]?
    }

    /// What a walk reads of one store.
    struct Spot {
        let lat: Double
        let lng: Double
        /// `cos(lat)` in radians, as `PlaceGrid.meters` computes it: the same value, once per fill, not per walk.
        let cosLat: Double
        /// An index into `categoryNames`.
        let category: Int32
        /// Its (zone, schedule) pair, an index into `openTable`'s answer: `zone * schedules.count + schedule`.
        let slot: Int32
    }

    package let ids: [String]
    let spots: [Spot]
    let categoryNames: [String]
    let zoneNames: [String]
    /// Distinct `open_minutes` as flat [start, end) pairs; empty (never open) for a store without hours: a dense
    /// city's stores share a few schedules, so a cell keeps each once (a 200,000-store grid then fits the cache).
    let schedules: [[Int32]]

    init(stores: [Store]) {
        var categoryIndex: [String: Int32] = [:], zoneIndex: [String: Int32] = [:],
            scheduleIndex: [[Int32]: Int32] = [:]
        var categoryNames: [String] = [], zoneNames: [String] = [], schedules: [[Int32]] = []
        func index<Key: Hashable>(_ key: Key, _ table: inout [Key: Int32], _ list: inout [Key]) -> Int32 {
            if let found = table[key] { return found }
            let added = Int32(list.count)
            table[key] = added
            list.append(key)
            return added
        }
        let categories = stores.map { index($0.categoryID, &categoryIndex, &categoryNames) }
        let zones = stores.map { index($0.zone, &zoneIndex, &zoneNames) }
        let hours = stores.map { index($0.open ?? [], &scheduleIndex, &schedules) }
        let width = Int32(schedules.count)
        spots = stores.indices.map { at in
            Spot(
                lat: stores[at].lat, lng: stores[at].lng, cosLat: PlaceGrid.cosine(of: stores[at].lat),
                category: categories[at], slot: zones[at] * width + hours[at])
        }
        ids = stores.map(\.id)
        self.categoryNames = categoryNames
        self.zoneNames = zoneNames
        self.schedules = schedules
    }

    var count: Int { ids.count }

    /// The last `openTable` a walk asked for, by its minute: a minute's walks ask the same cells the same.
    private let lastOpen = Mutex<(minute: Int, table: [Bool])?>(nil)

    /// `openTable` at `date`, each zone's minute of the week from `weekMinute`; kept for the rest of that minute
    /// (zones are whole minutes apart from UTC), so most walks read it instead of each schedule.
    func openTable(at date: Date, weekMinute: (String) -> Int) -> [Bool] {
        let minute = Int((date.timeIntervalSince1970 / 60).rounded(.down))
        if let kept = lastOpen.withLock({ $0 }), kept.minute == minute { return kept.table }
        let table = openTable(atWeekMinutes: zoneNames.map(weekMinute))
        lastOpen.withLock { $0 = (minute, table) }
        return table
    }

    /// Whether each (zone, schedule) pair is open, at index `zone * schedules.count + schedule`, given each zone's
    /// minute of the week (`open_minutes @> minute`): one check per schedule a walk, not one per store. A schedule's
    /// ranges are canonical (sorted, apart), so the last one starting at or before the minute decides.
    func openTable(atWeekMinutes minutes: [Int]) -> [Bool] {
        var table: [Bool] = []
        table.reserveCapacity(minutes.count * schedules.count)
        for minute in minutes {
            for bounds in schedules {
                var (low, high) = (0, bounds.count / 2)
                while low < high {
                    let middle = (low + high) / 2
                    if Int(bounds[2 * middle]) <= minute { low = middle + 1 } else { high = middle }
                }
                table.append(low > 0 && minute < Int(bounds[2 * low - 1]))
            }
        }
        return table
    }

    /// Bytes against the cache's cap: the packed spots and ids, the shared schedules and names.
    var cost: Int {
        256 + count * MemoryLayout<Spot>.stride + count * 16 + schedules.reduce(0) { $0 + 48 + $1.count * 4 }
            + (categoryNames.count + zoneNames.count) * 64
    }
}

/// The grid's cells through their own read cache (`Caching.places`).
package struct PlaceCells: Sendable {
    let database: Database
    let cache: ReadCache

    package init(database: Database, cache: ReadCache) {
        self.database = database
        self.cache = cache
    }

    /// The cells under `keys`, in their order: cached ones, and the rest in one statement on the primary (a replica
    /// may not have replayed what an invalidation already said). nil when the cache does not serve (not live, or a
    /// write request reading around it): the caller asks the statement instead.
    package func cells(_ keys: [Int64]) async throws -> [PlaceCell]? {
        guard let found = cache.getAll(keys.map { "g:\($0)" }, as: PlaceCell.self) else { return nil }
        var cells = found.map { $0?.value }
        let missing = zip(keys, found).compactMap { $1 == nil ? $0 : nil }
        guard !missing.isEmpty else { return cells.map { $0! } }
        let ticket = cache.ticket()
        let rows = try await ReadRouting.$floor.withValue(nil) { try await database.run(Load(cells: missing)) }
        var byCell: [Int64: [PlaceCell.Store]] = [:]
        var hours: [String: [Int32]] = [:]
        for row in rows {
            let open = row.open.map { text in
                if let shared = hours[text] { return shared }
                let parsed = Self.ranges(text)
                hours[text] = parsed
                return parsed
            }
            byCell[row.cell, default: []].append(
                PlaceCell.Store(
                    id: row.id, lat: row.lat, lng: row.lng, categoryID: row.categoryID, zone: row.zone, open: open))
        }
        for (index, key) in keys.enumerated() where cells[index] == nil {
            let cell = PlaceCell(stores: byCell[key] ?? [])
            cache.insert(
                "g:\(key)", ReadCache.Entry(value: cell, json: [], etag: ""), tags: ["g:\(key)"], cost: cell.cost,
                since: ticket)
            cells[index] = cell
        }
        return cells.map { $0! }
    }

    /// An `int4multirange`'s text (`{[0,600),[720,1440)}`; `{}` when empty) as flat bounds. Integer ranges are
    /// canonical in PostgreSQL: always `[lower,upper)`.
    static func ranges(_ text: String) -> [Int32] {
        var bounds: [Int32] = []
        var number: Int32 = 0
        var inNumber = false
        for byte in text.utf8 {
            if byte >= 0x30 && byte <= 0x39 {
                number = number &* 10 &+ Int32(byte - 0x30)
                inNumber = true
            } else if inNumber {
                bounds.append(number)
                (number, inNumber) = (0, false)
            }
        }
        return bounds
    }

    struct Row {
        let cell: Int64
        let id: String
        let lat: Double
        let lng: Double
        let categoryID: String
        let zone: String
        let open: String?
    }

    /// The live stores of some cells, by the expression index `stores_place_cell`.
    struct Load: PostgresPreparedStatement {
        static let name = "place_cells"
        static let sql = """
            SELECT place_cell(s.location), s.id, ST_Y(s.location::geometry), ST_X(s.location::geometry),
                s.category_id, s.time_zone, s.open_minutes::text
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

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (cell, id, lat, lng, categoryID, zone, open) = try row.decodeAll(
                (Int64, String, Double, Double, String, String, String?).self)
            return Row(cell: cell, id: id, lat: lat, lng: lng, categoryID: categoryID, zone: zone, open: open)
        }
    }
}

/// What ranking weighs of a store beside its place (`StoreCandidates.Candidate`), cached under `k:<id>` with the
/// store's tag `s:<id>`, which every change of the row sends: a pool of a hundred candidates reads these instead
/// of a hundred full store views, most of which a cache sized for store pages does not hold.
package struct StoreScore: Sendable, Equatable {
    package var categoryID: String
    package var ratingScore: Double
    package var favoriteCount: Int
    package var location: GeoPoint?
}

extension PlaceCells {
    /// The scores of the live stores among `ids` (missing: unknown or archived), cached ones and the rest in one
    /// statement on the primary; nil when the cache does not serve.
    package func scores(_ ids: [String]) async throws -> [String: StoreScore]? {
        guard let found = cache.getAll(ids.map { "k:" + $0 }, as: StoreScore.self) else { return nil }
        var scores: [String: StoreScore] = [:]
        scores.reserveCapacity(ids.count)
        var missing: [String] = []
        for (id, entry) in zip(ids, found) {
            if let entry { scores[id] = entry.value } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return scores }
        let ticket = cache.ticket()
        let read = try await ReadRouting.$floor.withValue(nil) { try await database.run(Scores(ids: missing)) }
        for (id, score) in read {
            scores[id] = score
            cache.insert(
                "k:" + id, ReadCache.Entry(value: score, json: [], etag: ""), tags: ["s:" + id], cost: 96, since: ticket
            )
        }
        return scores
    }

    struct Scores: PostgresPreparedStatement {
        static let name = "store_scores"
        static let sql = """
            SELECT s.id, s.category_id, s.rating_score, s.favorite_count, ST_Y(s.location::geometry),
                ST_X(s.location::geometry)
            FROM stores s WHERE s.id = ANY($1::text[]) AND s.archived_at IS NULL
            """
        static let bindingDataTypes: [PostgresDataType] = [.textArray]

        var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (String, StoreScore) {
            let (id, category, rating, favorites, lat, lng) = try row.decodeAll(
                (String, String, Double, Int, Double?, Double?).self)
            return (
                id,
                StoreScore(
                    categoryID: category, ratingScore: rating, favoriteCount: favorites,
                    location: lat.flatMap { lat in lng.map { GeoPoint(lat: lat, lng: $0) } })
            )
        }
    }
}
