import Foundation

/// What a list of stores is narrowed to: one WHERE on `stores s` for every statement that filters stores
/// (`GET /v1/stores`, the pick's pool, search's radius). Only the filters given add a condition.
package struct StoreFilter: Sendable {
    package var categoryID: String? = nil
    package var maxPrice: Int? = nil
    /// Within the radius of the point (ST_DWithin on the sphere, the GiST index `stores_location`).
    package var near: NearQuery? = nil
    /// Open at this moment in each store's own zone (migration 017's minutes of the week).
    package var openAt: Date? = nil
    /// Stores left out by id.
    package var skip: [String] = []
    /// Only these stores (search's hits).
    package var ids: [String]? = nil

    package init(
        categoryID: String? = nil, maxPrice: Int? = nil, near: NearQuery? = nil, openAt: Date? = nil,
        skip: [String] = [], ids: [String]? = nil
    ) {
        self.categoryID = categoryID
        self.maxPrice = maxPrice
        self.near = near
        self.openAt = openAt
        self.skip = skip
        self.ids = ids
    }

    /// The filter's values bound into `sql`.
    package func bind(_ sql: inout SQLBuilder) -> Bound {
        var others = ["s.archived_at IS NULL"]
        if let ids { others.append("s.id = ANY(\(sql.bind(ids))::text[])") }
        if let categoryID { others.append("s.category_id = \(sql.bind(categoryID))::text") }
        if let maxPrice { others.append("s.price_per_person <= \(sql.bind(maxPrice))::int") }
        if let openAt {
            others.append("s.open_minutes @> store_week_minute(\(sql.bind(openAt))::timestamptz, s.time_zone)")
        }
        if !skip.isEmpty { others.append("NOT (s.id = ANY(\(sql.bind(skip))::text[]))") }
        guard let near else { return Bound(others: others, point: nil, radius: nil) }
        let (lng, lat) = (sql.bind(near.point.lng), sql.bind(near.point.lat))
        let point = "ST_SetSRID(ST_MakePoint(\(lng)::float8, \(lat)::float8), 4326)::geography"
        return Bound(
            others: others, point: point, radius: "\(sql.bind(Double(near.radius)))::float8",
            placeMeters: "place_meters(\(lat)::float8, \(lng)::float8, s.location)")
    }

    /// A filter whose values are bound: its conditions and `near`'s point, as SQL.
    package struct Bound {
        let others: [String]
        /// `near`'s point as a geography, bound once however often a statement names it.
        package let point: String?
        package let radius: String?
        /// Metres from `near`'s point as the near-me walk measures them (migration 036's `place_meters`).
        package var placeMeters: String? = nil

        /// Every condition, joined by AND; the radius `within` replaces `near`'s (the distance sort's second step).
        package func conditions(within: String? = nil) -> String {
            guard let point, let radius = within ?? radius else { return others.joined(separator: " AND ") }
            return (others + ["ST_DWithin(s.location, \(point), \(radius), false)"]).joined(separator: " AND ")
        }

        /// Metres from `near`'s point on the sphere (nil without `near`).
        package var meters: String? { point.map { "ST_Distance(s.location, \($0), false)" } }
    }
}

/// Each sort's keyset: the key on `stores s`, its SQL type (what the cursor's text is cast to) and directions.
extension StoreSort {
    struct Keyset {
        let key: String
        let type: String
        let ascending: Bool
        let idAscending: Bool

        var order: String { "\(key) \(ascending ? "ASC" : "DESC"), s.id \(idAscending ? "ASC" : "DESC")" }

        /// Rows after the cursor's keys. One direction: a row comparison the index can range over.
        func after(_ key0: String, _ key1: String) -> String {
            if ascending == idAscending {
                return "(\(key), s.id) \(ascending ? ">" : "<") (\(key0)::\(type), \(key1)::text)"
            }
            return "(\(key) \(ascending ? ">" : "<") \(key0)::\(type) OR (\(key) = \(key0)::\(type) AND s.id "
                + "\(idAscending ? ">" : "<") \(key1)::text))"
        }
    }

    /// nil for `distance`, whose key is computed from `near` (`StoreRepository.listQuery`).
    var keyset: Keyset? {
        switch self {
        case .rating: return Keyset(key: "s.rating_score", type: "float8", ascending: false, idAscending: false)
        case .newest: return Keyset(key: "s.created_at", type: "timestamptz", ascending: false, idAscending: false)
        case .name:
            return Keyset(key: "s.name COLLATE \"C\"", type: "text COLLATE \"C\"", ascending: true, idAscending: true)
        case .popular: return Keyset(key: "s.favorite_count", type: "int", ascending: false, idAscending: false)
        // A literal, so the planner matches the index on the same expression (009's stores_price).
        case .price:
            return Keyset(
                key: "coalesce(s.price_per_person, \(Self.noPrice))", type: "int", ascending: true, idAscending: false)
        case .distance: return nil
        }
    }
}
