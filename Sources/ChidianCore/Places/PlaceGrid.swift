import Foundation

/// The grid near me is composed from (issue #45, migration 036): rows of 0.02° of latitude by columns of 0.02° of
/// longitude (about 2.2 by 1.9 km in Chengdu), each cell one number that SQL's `place_cell` computes alike.
package enum PlaceGrid {
    static let size = 0.02
    /// PostGIS's sphere (the WGS-84 mean radius): what `ST_DWithin(…, false)` measures on.
    static let sphereRadius = 6_371_008.771415
    /// Past this radius a walk would read too many cells; the statement answers.
    static let maxRadius = 10_000
    static let maxCells = 200

    /// The cell `(lat, lng)` falls in: the same float8 divisions and floors as `place_cell`.
    package static func cell(lat: Double, lng: Double) -> Int64 {
        (Int64((lat / size).rounded(.down)) + 5000) * 20000 + Int64((lng / size).rounded(.down)) + 10000
    }

    /// The cells a disc of `radius` metres around `point` can touch, nearest first, each with a lower bound of the
    /// metres from `point` to any position in it; nil as `cells`.
    package static func nearestCells(around point: GeoPoint, radius: Int) -> [(cell: Int64, atLeast: Double)]? {
        guard let cells = cells(around: point, radius: radius) else { return nil }
        return cells.map { cell -> (cell: Int64, atLeast: Double) in
            let row = Double(cell / 20000 - 5000)
            let column = Double(cell % 20000 - 10000)
            // The cell's position nearest to `point` by latitude and longitude apart: on cells this small the
            // sphere's nearest differs by far less than the 1 % and the metre taken off.
            let lat = min(max(point.lat, row * size), (row + 1) * size)
            let lng = min(max(point.lng, column * size), (column + 1) * size)
            return (cell, max(0, meters(from: point, lat: lat, lng: lng) * 0.99 - 1))
        }
        .filter { $0.atLeast <= Double(radius) }
        .sorted { $0.atLeast < $1.atLeast }
    }

    /// Every cell a disc of `radius` metres around `point` can touch; nil when the walk should not answer (a large
    /// radius, near a pole, or across the antimeridian).
    package static func cells(around point: GeoPoint, radius: Int) -> [Int64]? {
        guard let (rows, columns) = span(around: point, radius: radius) else { return nil }
        return rows.flatMap { row in columns.map { (row + 5000) * 20000 + $0 + 10000 } }
    }

    /// Whether the walk answers around `point` (`cells` is not nil), without listing the cells.
    package static func walks(around point: GeoPoint, radius: Int) -> Bool {
        span(around: point, radius: radius) != nil
    }

    /// The rows and columns of `cells`.
    private static func span(around point: GeoPoint, radius: Int) -> (ClosedRange<Int64>, ClosedRange<Int64>)? {
        guard radius <= maxRadius else { return nil }
        // Degrees of latitude the radius spans, with a margin; a degree of longitude shrinks with the cosine.
        let dLat = Double(radius) / (sphereRadius * Double.pi / 180) * 1.01 + 1e-6
        let (south, north) = (point.lat - dLat, point.lat + dLat)
        guard south > -80, north < 80 else { return nil }
        let dLng = dLat / cos(max(abs(south), abs(north)) * Double.pi / 180)
        let (west, east) = (point.lng - dLng, point.lng + dLng)
        guard west > -180, east < 180 else { return nil }
        let rows = Int64((south / size).rounded(.down))...Int64((north / size).rounded(.down))
        let columns = Int64((west / size).rounded(.down))...Int64((east / size).rounded(.down))
        guard rows.count * columns.count <= maxCells else { return nil }
        return (rows, columns)
    }

    /// Metres from `point` to `(lat, lng)` on PostGIS's sphere: SQL's `place_meters`, operation for operation, so
    /// the walk and the statement order and cut alike (the C library's functions on both sides).
    package static func meters(from point: GeoPoint, lat: Double, lng: Double) -> Double {
        meters(from: point, cosPoint: cosine(of: point.lat), lat: lat, lng: lng, cosLat: cosine(of: lat))
    }

    /// `meters` with both latitudes' cosines given (`cosine(of:)`): a walk computes the point's once and keeps each
    /// store's in its cell, and the answer is the same to the bit.
    static func meters(from point: GeoPoint, cosPoint: Double, lat: Double, lng: Double, cosLat: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (lat - point.lat) * toRadians / 2
        let dLng = (lng - point.lng) * toRadians / 2
        let a = sin(dLat) * sin(dLat) + cosPoint * cosLat * sin(dLng) * sin(dLng)
        return 2 * sphereRadius * asin(min(1, a.squareRoot()))
    }

    /// The cosine of a latitude in degrees, as `meters` takes it.
    static func cosine(of lat: Double) -> Double {
        cos(lat * (Double.pi / 180))
    }

    /// A float8 as PostgreSQL writes it (`float8out`: the shortest digits that read back, no trailing `.0`), so a
    /// walk's cursor is the statement's.
    package static func text(_ value: Double) -> String {
        let written = "\(value)"
        return written.hasSuffix(".0") ? String(written.dropLast(2)) : written
    }
}
