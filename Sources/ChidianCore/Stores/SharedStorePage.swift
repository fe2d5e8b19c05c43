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
