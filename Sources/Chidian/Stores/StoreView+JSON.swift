/// `StoreView` as `JSONEncoder` would write it, without the encoder (see `JSONWritable`).
extension StoreView: JSONWritable {
    public func write(to json: inout JSONWriter) {
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
            json.key("favoriteCount"); json.int(favoriteCount)
            json.key("favorited"); json.bool(favorited)
            json.key("promoted"); json.bool(promoted)
            json.key("createdAt"); json.date(createdAt)
            json.key("updatedAt"); json.date(updatedAt)
            json.key("version"); json.int(version)
            // Present only for the manager and admins: absent, not null, otherwise.
            if let adSpend { json.key("adSpend"); json.int(adSpend) }
        }
    }
}

/// `{"items": [store, ...]}`: the daily promotions.
struct StoreList: JSONWritable, Sendable {
    var items: [StoreView]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(items) { json, item in item.write(to: &json) }
        }
    }
}
