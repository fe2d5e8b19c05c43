import Foundation
import PostgresNIO

/// 猜你喜欢's two pools, prepared: every feed statement is (planning took longer than running).
extension StoreCandidates {
    /// Without `near`: related stores, the best of the viewer's top categories (`$4`) and the best overall.
    package struct Taste: PostgresPreparedStatement {
        package static let name = "stores_for_you"
        package static let sql =
            evidence + """
                , pool AS (
                    SELECT id FROM related
                    UNION
                    SELECT y.id FROM unnest($4::text[]) AS k (id) CROSS JOIN LATERAL (
                        SELECT t.id FROM stores t WHERE t.category_id = k.id AND t.archived_at IS NULL
                        ORDER BY t.rating_score DESC, t.id DESC LIMIT \(StoreFeed.perCategory)) y
                    UNION
                    SELECT b.id FROM (
                        SELECT t.id FROM stores t WHERE t.archived_at IS NULL
                        ORDER BY t.rating_score DESC, t.id DESC LIMIT \(StoreFeed.best)) b
                )
                """ + columns(meters: nil, within: nil)
        package static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz, .textArray]

        package var viewer: Viewer
        package var categories: [String]

        package func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(viewer.key)
            bindings.append(viewer.userID)
            bindings.append(viewer.since)
            bindings.append(categories)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws -> Candidate { try StoreCandidates.decode(row) }
    }

    /// With `near` (`$4` lat, `$5` lng, `$6` radius): the nearest stores in the radius, and related stores in it,
    /// by the distance the near-me walk measures (`walkedForYou` composes the same pool).
    struct Near: PostgresPreparedStatement {
        static let point = "ST_SetSRID(ST_MakePoint($5, $4), 4326)::geography"
        package static let name = "stores_for_you_near"
        package static let sql =
            evidence + """
                , pool AS (
                    SELECT id FROM related
                    UNION
                    SELECT n.id FROM (
                        SELECT t.id FROM stores t
                        WHERE t.archived_at IS NULL AND ST_DWithin(t.location, \(point), $6 + 1, false)
                            AND place_meters($4, $5, t.location) <= $6
                        ORDER BY t.location <-> \(point), t.id COLLATE "C" DESC LIMIT \(StoreFeed.nearest)) n
                )
                """
            + columns(
                meters: "place_meters($4, $5, s.location)",
                within: "ST_DWithin(s.location, \(point), $6 + 1, false) AND place_meters($4, $5, s.location) <= $6")
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz, .float8, .float8, .float8]

        package var viewer: Viewer
        package var near: NearQuery

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 6)
            bindings.append(viewer.key)
            bindings.append(viewer.userID)
            bindings.append(viewer.since)
            bindings.append(near.point.lat)
            bindings.append(near.point.lng)
            bindings.append(Double(near.radius))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Candidate { try StoreCandidates.decode(row) }
    }
}
