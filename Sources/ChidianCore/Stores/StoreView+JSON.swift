import Foundation

/// `StoreView` as `JSONEncoder` would write it, without the encoder (see `JSONWritable`).
extension StoreView: JSONWritable {
    public func write(to json: inout JSONWriter) { write(to: &json, at: ServerClock.now()) }

    /// The view with `openNow`, `closesAt`, `opensAt` and `couponCount` as at `now`.
    func write(to json: inout JSONWriter, at now: Date) {
        json.object { json in
            json.key("id"); json.string(id)
            json.key("name"); json.string(name)
            json.key("category")
            json.object { json in
                json.key("id"); json.string(category.id)
                json.key("name"); json.string(category.name)
            }
            json.key("description"); json.string(description)
            json.key("address"); json.string(address)
            json.key("managerId"); json.string(managerId)
            json.key("managerName"); json.string(managerName)
            json.key("imageUrls"); json.array(imageUrls) { json, url in json.string(url) }
            json.key("rating")
            json.object { json in
                json.key("average"); json.double(rating.average)
                json.key("count"); json.int(rating.count)
                json.key("score"); json.double(rating.score)
            }
            json.key("scores")
            json.object { json in
                json.key("taste"); json.double(scores.taste)
                json.key("environment"); json.double(scores.environment)
                json.key("service"); json.double(scores.service)
            }
            json.key("pricePerPerson"); json.int(pricePerPerson)
            json.key("dishes")
            json.array(dishes) { json, dish in
                json.object { json in
                    json.key("name"); json.string(dish.name)
                    json.key("count"); json.int(dish.count)
                }
            }
            json.key("notRecommendedCount"); json.int(notRecommendedCount)
            json.key("favoriteCount"); json.int(favoriteCount)
            json.key("favorited"); json.bool(favorited)
            json.key("promoted"); json.bool(promoted)
            json.key("createdAt"); json.date(createdAt)
            json.key("updatedAt"); json.date(updatedAt)
            json.key("version"); json.int(version)
            writePlace(to: &json, at: now)
            // Present only for the manager and admins: absent, not null, otherwise.
            if let adSpend { json.key("adSpend"); json.int(adSpend) }
        }
    }
}

extension StoreView {
    /// `location`, `hours`, `timeZone`, `openNow`, `closesAt`, `opensAt` and, for a request with `near`,
    /// `distanceMeters`. `openNow` is computed now, in the store's zone: cached bytes of a store with hours are
    /// never sent as they are (`currentJSON`).
    func writePlace(to json: inout JSONWriter, at now: Date = ServerClock.now()) {
        json.key("location")
        if let location {
            json.object { json in
                json.key("lat"); json.double(location.lat)
                json.key("lng"); json.double(location.lng)
            }
        } else {
            json.null()
        }
        json.key("hours")
        if let hours {
            json.array(hours.ranges) { json, range in
                json.object { json in
                    json.key("day"); json.int(range.day)
                    json.key("open"); json.string(WeeklyHours.clock(range.open))
                    json.key("close"); json.string(WeeklyHours.clock(range.close))
                }
            }
        } else {
            json.null()
        }
        json.key("timeZone"); json.string(timeZone)
        let status = self.status(at: now)
        json.key("openNow")
        if let status { json.bool(status.open) } else { json.null() }
        json.key("closesAt"); Self.write(status?.closesAt, to: &json)
        json.key("opensAt"); Self.write(status?.opensAt, to: &json)
        json.key("couponCount"); json.int(couponCount(at: now))
        if let distanceMeters { json.key("distanceMeters"); json.int(distanceMeters) }
    }

    private static func write(_ moment: WeeklyHours.Moment?, to json: inout JSONWriter) {
        guard let moment else { return json.null() }
        json.object { json in
            json.key("day"); json.int(moment.day)
            json.key("time"); json.string(moment.time)
        }
    }

    /// This view with `distanceMeters` from `point`, when both are known.
    package func measured(from point: GeoPoint?) -> StoreView {
        guard let meters = meters(from: point) else { return self }
        var view = self
        view.distanceMeters = meters
        return view
    }

    /// Whole metres from `point`, when both are known: `measured`'s figure without copying the view.
    package func meters(from point: GeoPoint?) -> Int? {
        guard let point, let location else { return nil }
        return Int(point.distance(to: location).rounded())
    }
}

extension StoreView {
    /// Whether JSON written at `then` still tells `openNow`, `closesAt`, `opensAt` and `couponCount` right at
    /// `now`: until the store next opens or closes, or a coupon of it starts or ends.
    func placeUnchanged(since then: Date, at now: Date) -> Bool {
        (hours == nil || status(at: then) == status(at: now)) && couponCount(at: then) == couponCount(at: now)
    }
}

extension ReadCache.Entry where Value == [StoreView] {
    /// Whether the cached bytes still tell every store's `openNow` right.
    package var placesUnchanged: Bool {
        let now = ServerClock.now()
        return value.allSatisfy { $0.placeUnchanged(since: renderedAt, at: now) }
    }
}

/// `{"items": [store, ...]}`: the daily promotions.
package struct StoreList: JSONWritable, Sendable {
    package var items: [StoreView]

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
        }
    }

    package init(items: [StoreView]) {
        self.items = items
    }
}
