import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// Near me composed from the grid's cached cells (issue #45) against the statement it stands in for: every page and
/// cursor equal, after every kind of write that changes what a cell holds, and cells kept through writes that do not.
@Suite struct NearWalkTests {
    @Test func theGridAndTheSphereAreSQLsToTheBit() async throws {
        try await TestApp.run { _, app in
            // setup: positions around Chengdu and a few anywhere, on cell edges too
            var generator = SeededRandom(seed: 45)
            var points: [(Double, Double, Double, Double)] = (0..<400).map { _ in
                (
                    30.6 + Double.random(in: -0.1...0.1, using: &generator),
                    104.0 + Double.random(in: -0.1...0.1, using: &generator),
                    30.6 + Double.random(in: -0.1...0.1, using: &generator),
                    104.0 + Double.random(in: -0.1...0.1, using: &generator)
                )
            }
            points += [(0.02, 104.04, 0.02, 104.04), (-33.86, 151.2, -33.84, 151.22), (40.7, -74.0, 40.71, -74.02)]
            for (lat, lng, storeLat, storeLng) in points {
                // MUT
                let row = try await app.database.query(
                    """
                    SELECT place_cell(p), place_meters(\(lat)::float8, \(lng)::float8, p)::text
                    FROM (SELECT ST_SetSRID(ST_MakePoint(\(storeLng)::float8, \(storeLat)::float8), 4326)::geography) x (p)
                    """)[0]
                let (cell, meters) = try row.decodeAll((Int64, String).self)
                // validate
                #expect(cell == PlaceGrid.cell(lat: storeLat, lng: storeLng))
                let swift = PlaceGrid.meters(from: GeoPoint(lat: lat, lng: lng), lat: storeLat, lng: storeLng)
                #expect(meters == PlaceGrid.text(swift), "\(lat),\(lng) → \(storeLat),\(storeLng)")
            }
        }
    }

    @Test func aDiscsCellsCoverEveryStoreWithinItNearestFirst() throws {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let centre = GeoPoint(
                lat: Double.random(in: -70...70, using: &generator),
                lng: Double.random(in: -170...170, using: &generator))
            let radius = Int.random(in: 1...PlaceGrid.maxRadius, using: &generator)
            guard let cells = PlaceGrid.cells(around: centre, radius: radius) else { continue }
            // A point on the disc's edge in a random direction, a metre inside.
            let bearing = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let angle = (Double(radius) - 1) / PlaceGrid.sphereRadius
            let lat0 = centre.lat * Double.pi / 180
            let lat = asin(sin(lat0) * cos(angle) + cos(lat0) * sin(angle) * cos(bearing))
            let lng =
                centre.lng * Double.pi / 180
                + atan2(sin(bearing) * sin(angle) * cos(lat0), cos(angle) - sin(lat0) * sin(lat))
            let edge = (lat: lat * 180 / Double.pi, lng: lng * 180 / Double.pi)
            // and a point anywhere in the disc's box
            let inside = (
                lat: centre.lat + Double.random(in: -1...1, using: &generator) * angle * 180 / Double.pi,
                lng: centre.lng + Double.random(in: -1...1, using: &generator) * angle * 180 / Double.pi
            )
            let nearest = try #require(PlaceGrid.nearestCells(around: centre, radius: radius))
            // validate
            #expect(PlaceGrid.meters(from: centre, lat: edge.lat, lng: edge.lng) <= Double(radius))
            #expect(cells.contains(PlaceGrid.cell(lat: edge.lat, lng: edge.lng)), "\(centre) r \(radius)")
            #expect(nearest.map(\.atLeast) == nearest.map(\.atLeast).sorted())
            for point in [edge, inside] {
                let meters = PlaceGrid.meters(from: centre, lat: point.lat, lng: point.lng)
                let cell = PlaceGrid.cell(lat: point.lat, lng: point.lng)
                // the cell's bound never exceeds what it holds; a cell left out holds nothing within the radius
                if let bound = nearest.first(where: { $0.cell == cell }) {
                    #expect(bound.atLeast <= meters, "\(centre) → \(point)")
                } else {
                    #expect(meters > Double(radius), "\(centre) → \(point)")
                }
            }
        }
        #expect(PlaceGrid.cells(around: GeoPoint(lat: 30.6, lng: 104), radius: PlaceGrid.maxRadius + 1) == nil)
        #expect(PlaceGrid.cells(around: GeoPoint(lat: 10, lng: 179.99), radius: 3000) == nil)
    }

    /// `count` stores spiralling out to about 5 km (90) from the centre, in threes at one address; hours always,
    /// never, none or daytime; two zones; two categories; some archived or without a position.
    static func crowd(_ app: TestApp, managerID: String, categories: [String], count: Int) async throws {
        try await app.database.query(
            """
            INSERT INTO stores (name, category_id, manager_id, location, hours, time_zone, archived_at)
            SELECT 'n' || n, (\(categories)::text[])[1 + (n % 5 = 0)::int], \(managerID),
                CASE WHEN n % 19 = 18 THEN NULL ELSE ST_SetSRID(ST_MakePoint(
                    104.081 + 0.045 * sin(n / 3) * (n / 3 + 1) / 30.0,
                    30.659 + 0.045 * cos(n / 3) * (n / 3 + 1) / 30.0), 4326)::geography END,
                (CASE n % 4
                    WHEN 0 THEN '[{"day":1,"open":"00:00","close":"00:00"},{"day":2,"open":"00:00","close":"00:00"},'
                        || '{"day":3,"open":"00:00","close":"00:00"},{"day":4,"open":"00:00","close":"00:00"},'
                        || '{"day":5,"open":"00:00","close":"00:00"},{"day":6,"open":"00:00","close":"00:00"},'
                        || '{"day":7,"open":"00:00","close":"00:00"}]'
                    WHEN 1 THEN '[]'
                    WHEN 2 THEN NULL
                    ELSE '[{"day":1,"open":"09:00","close":"21:00"},{"day":3,"open":"09:00","close":"21:00"},'
                        || '{"day":5,"open":"22:00","close":"06:00"},{"day":6,"open":"09:00","close":"21:00"}]'
                END)::jsonb,
                CASE WHEN n % 7 = 6 THEN 'America/New_York' ELSE 'Asia/Shanghai' END,
                CASE WHEN n % 13 = 12 THEN now() END
            FROM generate_series(0, \(count - 1)) AS n
            """)
    }

    /// Every page of each near-me query, anonymous and signed in, as bytes, cursors followed.
    static func pages(_ client: some TestClientProtocol, token: String, category: String) async throws
        -> [String: String]
    {
        let queries = [
            "near=30.659,104.081&sort=distance&radius=3000", "near=30.659,104.081&sort=distance&open=now",
            "near=30.672,104.066&sort=distance&radius=1500&category=\(category)",
            "near=30.659,104.081&sort=distance&radius=9000&open=now",
            "near=30.659,104.081&sort=distance&radius=20000",
        ]
        var pages: [String: String] = [:]
        for query in queries {
            for (limit, viewer) in [(4, nil), (20, nil), (7, token)] {
                var cursor: String? = nil
                var page = 0
                repeat {
                    let path =
                        "/v1/stores?\(query)&limit=\(limit)"
                        + (cursor.map { "&cursor=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
                            ?? "")
                    let response = try await client.send(.get, path, token: viewer)
                    #expect(response.status == .ok, "\(path)")
                    pages["\(query) limit \(limit) \(viewer == nil ? "anonymous" : "signed in") page \(page)"] =
                        response.text
                    cursor = try response.json()["nextCursor"] as? String
                    page += 1
                } while cursor != nil && page < 60
            }
        }
        return pages
    }

    @Test func walkedPagesEqualTheStatementAfterEveryWrite() async throws {
        // Every write is fenced before a read; a long freshness keeps a loaded machine's late heartbeat from
        // turning the cache off between a page and the checks of what it kept.
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { cached, app in
            // setup: 90 stores within about 5 km, in threes at one address; hours always, never, none or daytime;
            // two zones; two categories; some archived or without a position
            let plain = app.uncached()
            let caching = try #require(app.services.caching)
            let manager = try await cached.register("店长", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            let reader = try await cached.register("读者")
            try await Self.crowd(app, managerID: manager.id, categories: [main, second], count: 90)
            // Six near the centre open for two hours around now in Shanghai's clock, alternately in New York's
            // zone, where the same hours are closed now: open now must be judged in each store's own zone.
            try await app.database.query(
                """
                INSERT INTO stores (name, category_id, manager_id, location, hours, time_zone)
                SELECT 'z' || n, \(main), \(manager.id),
                    ST_SetSRID(ST_MakePoint(104.081 + 0.001 * n, 30.659 - 0.0007 * n), 4326)::geography,
                    jsonb_build_array(jsonb_build_object(
                        'day', extract(isodow FROM l - interval '1 hour')::int,
                        'open', to_char(l - interval '1 hour', 'HH24:MI'),
                        'close', to_char(l + interval '1 hour', 'HH24:MI'))),
                    CASE WHEN n % 2 = 0 THEN 'Asia/Shanghai' ELSE 'America/New_York' END
                FROM generate_series(1, 6) AS n, (SELECT now() AT TIME ZONE 'Asia/Shanghai') AS t (l)
                """)
            await app.settle()
            let zoned = try await cached.send(.get, "/v1/stores?near=30.659,104.081&sort=distance&open=now&limit=100")
            let open = try zoned.json()["items"] as? [[String: Any]] ?? []
            #expect(open.count { ($0["name"] as? String)?.hasPrefix("z") == true } == 3)
            let ids = try await app.database.query("SELECT id FROM stores WHERE name ~ '^n' ORDER BY name")
                .map { try $0.decode(String.self) }
            let nearest = try await app.database.query(
                """
                SELECT place_cell(location) FROM stores WHERE archived_at IS NULL AND location IS NOT NULL
                ORDER BY location <-> ST_SetSRID(ST_MakePoint(104.081, 30.659), 4326)::geography LIMIT 1
                """)[0].decode(Int64.self)
            let customer = try await cached.register("食客")
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "a store opens in the middle",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO stores (name, category_id, manager_id, location)
                            VALUES ('新店', \(main), \(manager.id),
                                ST_SetSRID(ST_MakePoint(104.0812, 30.6591), 4326)::geography)
                            """)
                    }
                ),
                (
                    "a review moves a store's rating",
                    {
                        let posted = try await cached.send(
                            .post, "/v1/stores/\(ids[0])/comments",
                            body: ["rating": 5, "body": "很好吃", "pricePerPerson": 80],
                            token: customer.token)
                        #expect(posted.status == .created)
                    }
                ),
                (
                    "a store moves from far to near",
                    {
                        try await app.database.query(
                            """
                            UPDATE stores SET location = ST_SetSRID(ST_MakePoint(104.0805, 30.6588), 4326)::geography
                            WHERE id = \(ids[88])
                            """)
                    }
                ),
                (
                    "a store's hours close it",
                    { try await app.database.query("UPDATE stores SET hours = '[]' WHERE id = \(ids[4])") }
                ),
                (
                    "a store without hours gets them",
                    {
                        try await app.database.query(
                            """
                            UPDATE stores SET hours = '[{"day":1,"open":"00:00","close":"00:00"},
                                {"day":2,"open":"00:00","close":"00:00"},{"day":3,"open":"00:00","close":"00:00"},
                                {"day":4,"open":"00:00","close":"00:00"},{"day":5,"open":"00:00","close":"00:00"},
                                {"day":6,"open":"00:00","close":"00:00"},{"day":7,"open":"00:00","close":"00:00"}]'
                            WHERE id = \(ids[2])
                            """)
                    }
                ),
                (
                    "a store changes zone",
                    {
                        try await app.database.query(
                            "UPDATE stores SET time_zone = 'America/New_York' WHERE id = \(ids[3])")
                    }
                ),
                (
                    "a store changes category",
                    { try await app.database.query("UPDATE stores SET category_id = \(second) WHERE id = \(ids[1])") }
                ),
                (
                    "a store is archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(ids[6])") }
                ),
                (
                    "and restored",
                    { try await app.database.query("UPDATE stores SET archived_at = NULL WHERE id = \(ids[6])") }
                ),
                ("a store is deleted", { try await app.database.query("DELETE FROM stores WHERE name = '新店'") }),
            ]
            try await plain.test(.router) { uncached in
                @Sendable func check(_ label: String) async throws {
                    let truth = try await Self.pages(uncached, token: reader.token, category: second)
                    for _ in 0..<2 {
                        let served = try await Self.pages(cached, token: reader.token, category: second)
                        #expect(served.keys.sorted() == truth.keys.sorted(), "after \(label)")
                        for (page, text) in truth { #expect(served[page] == text, "after \(label): \(page)") }
                    }
                }
                try await check("the start")
                // validate: the pages came from cells, which are now kept
                #expect(caching.places.get("g:\(nearest)", as: PlaceCell.self) != nil)
                for (label, write) in writes {
                    let before = caching.places.get("g:\(nearest)", as: PlaceCell.self)
                    // MUT: the write, heard by the server
                    try await write()
                    await app.settle()
                    try await check(label)
                    // and a review leaves the cells alone
                    if label == "a review moves a store's rating" {
                        #expect(before != nil && caching.places.get("g:\(nearest)", as: PlaceCell.self) === before)
                    }
                }
            }
        }
    }
}
