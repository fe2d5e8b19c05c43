import Foundation
import PostgresNIO

/// The statements that read full store views. Both select `StoreViewRow.columns` and decode it whole.
enum StoreStatements {
    /// One live store as `viewer` (nil: anonymous) sees it. Its own statement: planned for an id list of unknown
    /// length, the lookup of one store costs PostgreSQL more than a custom plan, so it would be re-planned on
    /// every store page; by id its one prepared plan is kept.
    struct ByID: PostgresPreparedStatement {
        package static let name = "store_by_id"
        package static let sql = """
            SELECT \(StoreViewRow.columns)
            FROM stores s \(StoreViewRow.joins)
            WHERE s.id = $1 AND s.archived_at IS NULL
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text]

        package var id: String
        package var viewer: AuthUser?
        /// Keep `adSpend` whoever reads: the cache's shared view, hidden again per viewer by `personalised`.
        package var shared = false

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(id)
            bindings.append(viewer?.id)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> StoreView {
            try StoreViewRow.decode(row, viewer: viewer, keepAdSpend: shared)
        }
    }

    /// `columns` of the live stores among `ids`, in the order given (duplicates kept); through `ids_in_order`
    /// (migration 044), so that it is planned once per connection, not on every read.
    static func byIDs(_ columns: String) -> String {
        """
        SELECT \(columns)
        FROM ids_in_order($1::text[]) AS wanted (id, position)
        JOIN stores s ON s.id = wanted.id AND s.archived_at IS NULL
        \(StoreViewRow.joins)
        ORDER BY wanted.position
        """
    }

    /// The live stores among `ids` as `viewer` sees them (`byIDs`).
    struct ByIDs: PostgresPreparedStatement {
        package static let name = "stores_by_ids"
        package static let sql = StoreStatements.byIDs(StoreViewRow.columns)
        static let bindingDataTypes: [PostgresDataType] = [.textArray, .text]

        package var ids: [String]
        package var viewer: AuthUser?

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(ids)
            bindings.append(viewer?.id)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> StoreView {
            try StoreViewRow.decode(row, viewer: viewer)
        }
    }

    /// `ByIDs` as everyone sees them, for the read cache. Without the viewer's `$2` its custom plans (NULL folds the
    /// favourite check away) no longer look cheaper than the generic one, so PostgreSQL keeps the generic plan: a
    /// custom plan cost 0.3–0.9 ms to make for a 0.1–0.2 ms read (a pick at 200,000 stores missed three cards).
    struct SharedByIDs: PostgresPreparedStatement {
        package static let name = "stores_shared_by_ids"
        package static let sql = StoreStatements.byIDs(StoreViewRow.sharedColumns)
        static let bindingDataTypes: [PostgresDataType] = [.textArray]

        package var ids: [String]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(ids)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> StoreView {
            try StoreViewRow.decode(row, viewer: nil, keepAdSpend: true)
        }
    }
}

extension StoreStatements {
    /// The ids of the daily promotions: live stores with ad spend, highest first, ties by earlier creation then id.
    package struct Promoted: PostgresPreparedStatement {
        package static let name = "stores_promoted"
        package static let sql = """
            SELECT s.id FROM stores s WHERE s.archived_at IS NULL AND s.ad_spend > 0
            ORDER BY s.ad_spend DESC, s.created_at, s.id LIMIT $1
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8]

        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decodeAll(String.self) }
    }

    /// The manager of a live store: every review posted asks it first.
    struct LiveManager: PostgresPreparedStatement {
        package static let name = "store_live_manager"
        package static let sql = "SELECT manager_id FROM stores WHERE id = $1 AND archived_at IS NULL"
        static let bindingDataTypes: [PostgresDataType] = [.text]

        package var storeID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(storeID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decodeAll(String.self) }
    }
}

/// The columns of a store view and their decoder, kept side by side: `decode` reads the row whole
/// (`decodeAll`), so a column added to one and not the other fails every store read.
enum StoreViewRow {
    /// `$2` is the viewer's id (NULL when anonymous) for `favorited`.
    package static let columns = columns(
        favorited: "EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = $2 AND f.store_id = s.id)")
    /// The columns as everyone sees them (`favorited` false), with no `$2`: the read cache's.
    package static let sharedColumns = columns(favorited: "false")

    private static func columns(favorited: String) -> String {
        """
        s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
            COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
                     '{}'::text[]),
            s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
            s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
            s.favorite_count, s.not_recommended_count,
            \(favorited),
            s.ad_spend, s.created_at, s.updated_at, s.version,
            ST_Y(s.location::geometry), ST_X(s.location::geometry), s.hours::text, s.time_zone,
            ARRAY(SELECT k.starts_at FROM coupons k
                  WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id),
            ARRAY(SELECT k.ends_at FROM coupons k
                  WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id)
        """
    }

    /// The joins those columns need after `stores s`.
    package static let joins = """
        JOIN categories c ON c.id = s.category_id
        JOIN users u ON u.id = s.manager_id
        """

    package static func decode(_ row: PostgresRow, viewer: AuthUser?, keepAdSpend: Bool = false) throws -> StoreView {
        let (
            id, name, categoryID, categoryName, description, address, managerID, managerName, imageIDs,
            ratingCount, ratingSum, score, tasteCount, tasteSum, environmentCount, environmentSum, serviceCount,
            serviceSum, price, dishNames, dishCounts, favoriteCount, notRecommended, favorited, adSpend, createdAt,
            updatedAt, version,
            lat, lng, hours, timeZone, couponStarts, couponEnds
        ) = try row.decodeAll(
            (
                String, String, String, String, String, String, String, String, [String],
                Int, Int, Double, Int, Int, Int, Int, Int, Int, Int?, [String], [Int], Int, Int, Bool, Int, Date, Date,
                Int,
                Double?, Double?, String?, String, [Date], [Date]
            ).self)
        func average(_ sum: Int, _ count: Int) -> Double? { count == 0 ? nil : Double(sum) / Double(count) }
        return StoreView(
            id: id, name: name, category: .init(id: categoryID, name: categoryName), description: description,
            address: address, managerId: managerID, managerName: managerName, imageUrls: imageIDs.map(ImageURL.path),
            rating: .init(
                average: average(ratingSum, ratingCount), count: ratingCount, score: score),
            scores: .init(
                taste: average(tasteSum, tasteCount), environment: average(environmentSum, environmentCount),
                service: average(serviceSum, serviceCount)),
            pricePerPerson: price,
            dishes: zip(dishNames, dishCounts).map { StoreView.Dish(name: $0, count: $1) },
            notRecommendedCount: notRecommended,
            favoriteCount: favoriteCount, favorited: favorited, promoted: adSpend > 0, createdAt: createdAt,
            updatedAt: updatedAt, version: version,
            adSpend: keepAdSpend || StorePermissions.seesAdSpend(viewer, managerID: managerID) ? adSpend : nil,
            location: lat.flatMap { lat in lng.map { GeoPoint(lat: lat, lng: $0) } },
            hours: hours.flatMap(WeeklyHours.init(stored:)),
            timeZone: timeZone,
            couponWindows: zip(couponStarts, couponEnds).compactMap { $0 < $1 ? $0..<$1 : nil })
    }
}
