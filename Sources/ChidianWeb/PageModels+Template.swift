import ChidianCore

// Templates look values up by name: each page model answers with a `switch`, the value typed (no reflection, no
// dynamic cast; a nil optional answers nil, so the lookup goes on down the context stack as mustache's does).

extension ViewerModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "id": .text(id)
        case "name": .text(self.name)
        case "isManager": .bool(isManager)
        case "isAdmin": .bool(isAdmin)
        default: nil
        }
    }
}

extension StarsModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "glyphs": .text(glyphs)
        case "label": .text(label)
        default: nil
        }
    }
}

extension StoreCardModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "id": .text(id)
        case "name": .text(self.name)
        case "categoryName": .text(categoryName)
        case "imageUrl": imageUrl.map(TemplateValue.text)
        case "hasRating": .bool(hasRating)
        case "average": .text(average)
        case "stars": stars.map { .object($0) }
        case "ratingCount": .int(ratingCount)
        case "price": price.map(TemplateValue.text)
        case "promoted": .bool(promoted)
        case "hasCoupons": .bool(hasCoupons)
        case "from": from.map { .text($0.rawValue) }
        default: nil
        }
    }
}

extension StorePageModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "card": .object(card)
        case "description": .text(self.description)
        case "address": .text(address)
        case "managerName": .text(managerName)
        case "images": images.templateValue
        case "scores": scores.templateValue
        case "dishes": dishes.templateValue
        case "hasDishes": .bool(hasDishes)
        case "favoriteCount": .int(favoriteCount)
        case "favorited": .bool(favorited)
        default: nil
        }
    }
}

extension StorePageModel.Score: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "label": .text(label)
        case "value": .text(value)
        default: nil
        }
    }
}

extension StorePageModel.Dish: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "name": .text(self.name)
        case "count": .int(count)
        default: nil
        }
    }
}

extension CommentCardModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "id": .text(id)
        case "isNotice": .bool(isNotice)
        case "storeId": .text(storeId)
        case "storeName": .text(storeName)
        case "categoryName": .text(categoryName)
        case "authorId": .text(authorId)
        case "authorName": .text(authorName)
        case "stars": stars.map { .object($0) }
        case "scores": scores.map(TemplateValue.text)
        case "price": price.map(TemplateValue.text)
        case "body": .text(body)
        case "images": images.templateValue
        case "likeCount": .int(likeCount)
        case "liked": .bool(liked)
        case "canLike": .bool(canLike)
        case "reply": reply.map { .object($0) }
        case "date": .text(date)
        case "dateTime": .text(dateTime)
        default: nil
        }
    }
}

extension CommentCardModel.Reply: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "body": .text(body)
        case "authorName": .text(authorName)
        default: nil
        }
    }
}

extension ProfileModel: TemplateObject {
    func field(_ name: String) -> TemplateValue? {
        switch name {
        case "id": .text(id)
        case "name": .text(self.name)
        case "avatarUrl": avatarUrl.map(TemplateValue.text)
        case "role": .text(role)
        case "reviewCount": .int(reviewCount)
        case "followerCount": .int(followerCount)
        case "followingCount": .int(followingCount)
        case "joined": .text(joined)
        default: nil
        }
    }
}
