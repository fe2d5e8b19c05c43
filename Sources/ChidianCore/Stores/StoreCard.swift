import Foundation

/// What a cached store keeps beside its anonymous JSON: the fields a list, a walk and `openNow` read. The whole view
/// is read back from the JSON when a page needs it (`ReadCache.Entry.view()`): keeping the view and its JSON took
/// about 4.4 kB a store, and lists at noon missed the cache for it (docs/CACHING.md, "Store cards").
package struct StoreCard: Sendable {
    package let id: String
    /// What a search page says matched.
    package let name: String
    package let categoryName: String
    package let managerId: String
    package let version: Int
    package let location: GeoPoint?
    package let hours: WeeklyHours?
    package let timeZone: String
    /// Not in the JSON, which says only how many run now.
    package let couponWindows: [Range<Date>]
    /// Not in the anonymous JSON: the manager and admins see it (`StoreView.personalised`).
    package let adSpend: Int?
    /// What the pick's reasons say of it (`PickReasons.Facts`), without reading the JSON back.
    package let ratingAverage: Double?
    package let pricePerPerson: Int?
    package let favoriteCount: Int

    package init(_ view: StoreView) {
        id = view.id
        name = view.name
        categoryName = view.category.name
        managerId = view.managerId
        version = view.version
        location = view.location
        hours = view.hours?.shared()
        timeZone = view.timeZone
        couponWindows = view.couponWindows
        adSpend = view.adSpend
        ratingAverage = view.rating.average
        pricePerPerson = view.pricePerPerson
        favoriteCount = view.favoriteCount
    }

    func couponCount(at date: Date) -> Int {
        couponWindows.reduce(0) { $0 + ($1.contains(date) ? 1 : 0) }
    }

    func status(at date: Date) -> WeeklyHours.Status? {
        hours?.status(at: date, in: StoreTimeZone.zone(timeZone))
    }

    /// A shared store's `favorited` in its JSON, and a viewer's who favorited it (`json(favorited:)`).
    static let notFavorited = Array(#""favorited":false"#.utf8)
    static let favorited = Array(#""favorited":true"#.utf8)

    /// The card's own bytes, for the cache's cap (its JSON is counted apart).
    package static func cost(_ card: StoreCard) -> Int {
        344 + 24 * (card.hours?.ranges.count ?? 0) + 16 * card.couponWindows.count
    }

    /// Whole metres from `point`, when both are known (as `StoreView.meters(from:)`).
    package func meters(from point: GeoPoint?) -> Int? {
        guard let point, let location else { return nil }
        return Int(point.distance(to: location).rounded())
    }
}

extension ReadCache.Entry where Value == StoreCard {
    /// A store's entry: its card and its anonymous JSON as at `renderedAt`.
    package convenience init(store view: StoreView, renderedAt: Date = ServerClock.now()) throws {
        let written = try JSONWriter.bytes(of: StoreView.At(view: view.personalised(for: nil), now: renderedAt))
        // A copy of exactly its size: the writer's array grew by doubling.
        let json = written.withUnsafeBufferPointer { Array($0) }
        // No ETag of its own: a store page's is its version (`Versioning.tag`).
        self.init(value: StoreCard(view), json: json, etag: "", renderedAt: renderedAt)
    }

    /// The store as everyone sees it (`favorited` false, `adSpend` kept), read back from the JSON: dates to the
    /// second, as they are sent.
    package func view() throws -> StoreView {
        var view = try StoreView(reading: json)
        view.couponWindows = value.couponWindows
        view.adSpend = value.adSpend
        return view
    }

    /// The anonymous JSON to send now (`json(at:)`).
    package var currentJSON: [UInt8] { json(at: ServerClock.now()) }

    /// Whether the cached bytes still tell `openNow`, `closesAt`, `opensAt` and `couponCount` right at `now`:
    /// until the store next opens or closes, or a coupon of it starts or ends. Hours change a status only between
    /// minutes, so a minute found unchanged is remembered (`heldMinute`) and the rest of it costs the coupons'
    /// comparison alone; a list page checks twenty stores. A store read finds an entry no longer current a miss,
    /// and reads it again.
    package func isCurrent(at now: Date) -> Bool {
        guard value.couponCount(at: renderedAt) == value.couponCount(at: now) else { return false }
        let minute = Int64((now.timeIntervalSince1970 / 60).rounded(.down))
        if heldMinute.load(ordering: .relaxed) == minute { return true }
        guard value.hours == nil || value.status(at: renderedAt) == value.status(at: now) else { return false }
        heldMinute.store(minute, ordering: .relaxed)
        return true
    }

    /// The JSON to send now to a viewer who did or did not favorite the store. A string's quotes are escaped in
    /// JSON, so `"favorited":false` can only be the key itself.
    package func json(favorited: Bool) -> [UInt8] {
        let json = currentJSON
        guard favorited, let key = json.firstRange(of: StoreCard.notFavorited) else { return json }
        var patched = json
        patched.replaceSubrange(key, with: StoreCard.favorited)
        return patched
    }

    /// The anonymous JSON as true at `now`: the cached bytes, or, in the moment between a read that found them
    /// current and a store opening, the view written again.
    package func json(at now: Date) -> [UInt8] {
        guard !isCurrent(at: now) else { return json }
        return (try? JSONWriter.bytes(of: StoreView.At(view: view(), now: now))) ?? json
    }
}

extension StoreView {
    /// A view written as at a given time.
    struct At: JSONWritable {
        var view: StoreView
        var now: Date
        func write(to json: inout JSONWriter) { view.write(to: &json, at: now) }
    }
}
