/// A store list page for everyone, written from cached parts: each store's anonymous JSON is copied from its cache
/// entry and `distanceMeters` (the last key an anonymous store has) appended, instead of writing the store again,
/// which was most of a near-me page's server time. The same bytes as `Page<StoreView>` for an anonymous viewer
/// (`NearPagingTests` compares them with a signed-in viewer's page).
package struct SharedStorePage: JSONWritable, Sendable {
    package var items: [(store: ReadCache.Entry<StoreCard>, distance: Int?)]
    package var nextCursor: String?

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in
                json.object(extending: item.store.currentJSON) { json in
                    if let distance = item.distance { json.key("distanceMeters"); json.int(distance) }
                }
            }
            json.key("nextCursor")
            json.string(nextCursor)
        }
    }
}

/// `{items: [Store]}` for everyone from cached parts, as `SharedStorePage` (also-viewed and 猜你喜欢 for anonymous
/// viewers; the same bytes as `RecommendController.StoreList`).
package struct SharedStoreList: JSONWritable, Sendable {
    package var items: [(store: ReadCache.Entry<StoreCard>, distance: Int?)]

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in
                json.object(extending: item.store.currentJSON) { json in
                    if let distance = item.distance { json.key("distanceMeters"); json.int(distance) }
                }
            }
        }
    }

    package init(items: [(store: ReadCache.Entry<StoreCard>, distance: Int?)]) {
        self.items = items
    }
}

/// `{items: [Store]}` for a signed-in viewer from the stores' cached JSON: each store's `"favorited":false` turned
/// `true` where they favorited it and `adSpend` appended where they may see it (the manager, admins), after
/// `distanceMeters`, as `StoreView.write` orders them. The same bytes as `RecommendController.StoreList` of the
/// viewer's views; reading twenty views back from JSON for it cost 猜你喜欢 a quarter of its rate.
package struct PersonalStoreList: JSONWritable, Sendable {
    package struct Item: Sendable {
        package var store: ReadCache.Entry<StoreCard>
        package var distance: Int?
        package var favorited: Bool
        package var adSpend: Int?
    }

    package var items: [Item]

    package init(items: [Item]) {
        self.items = items
    }

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
        }
    }
}

extension PersonalStoreList.Item: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object(extending: store.json(favorited: favorited)) { json in
            if let distance { json.key("distanceMeters"); json.int(distance) }
            if let adSpend { json.key("adSpend"); json.int(adSpend) }
        }
    }
}

/// A signed-in viewer's page of a store list (`GET /v1/stores`), written as `PersonalStoreList` writes its stores:
/// the same bytes as `Page<StoreView>` of their views.
package struct PersonalStorePage: JSONWritable, Sendable {
    package var items: [PersonalStoreList.Item]
    package var nextCursor: String?

    package init(items: [PersonalStoreList.Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
            json.key("nextCursor")
            json.string(nextCursor)
        }
    }
}
