/// `CommentView` as `JSONEncoder` would write it, without the encoder (see `JSONWritable`).
extension CommentView: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("id"); json.string(id)
            json.key("kind"); json.string(kind.rawValue)
            json.key("storeId"); json.string(storeId)
            json.key("store")
            json.object { json in
                json.key("id"); json.string(store.id)
                json.key("name"); json.string(store.name)
                json.key("category")
                json.object { json in
                    json.key("id"); json.string(store.category.id)
                    json.key("name"); json.string(store.category.name)
                }
                json.key("imageUrl"); json.string(store.imageUrl)
            }
            json.key("author")
            json.object { json in
                json.key("id"); json.string(author.id)
                json.key("name"); json.string(author.name)
                json.key("avatarUrl"); json.string(author.avatarUrl)
            }
            json.key("rating"); json.int(rating)
            json.key("scores")
            if let scores {
                json.object { json in
                    json.key("taste"); json.int(scores.taste)
                    json.key("environment"); json.int(scores.environment)
                    json.key("service"); json.int(scores.service)
                }
            } else {
                json.null()
            }
            json.key("pricePerPerson"); json.int(pricePerPerson)
            json.key("body"); json.string(body)
            json.key("imageUrls"); json.array(imageUrls) { json, url in json.string(url) }
            json.key("likeCount"); json.int(likeCount)
            json.key("liked"); json.bool(liked)
            json.key("recommended"); json.bool(recommended)
            json.key("reply")
            if let reply {
                json.object { json in
                    json.key("body"); json.string(reply.body)
                    json.key("author")
                    json.object { json in
                        json.key("id"); json.string(reply.author.id)
                        json.key("name"); json.string(reply.author.name)
                    }
                    json.key("createdAt"); json.date(reply.createdAt)
                    json.key("updatedAt"); json.date(reply.updatedAt)
                }
            } else {
                json.null()
            }
            json.key("createdAt"); json.date(createdAt)
            json.key("updatedAt"); json.date(updatedAt)
            json.key("version"); json.int(version)
        }
    }
}
