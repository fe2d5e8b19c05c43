/// Every feature's rules, built once by the composition root (`buildRouter` in ChidianApp) and handed to the JSON
/// API's controllers and the web's pages alike, so both apply the same rules to the same repositories. A class: every
/// handler's closure that captures it takes one reference, not a copy of every service's fields (a store page for a
/// visitor spent 6 % of its CPU copying them).
package final class Services: Sendable {
    package let accounts: AccountService
    package let comments: CommentService
    package let images: ImageService
    package let stores: StoreService
    package let favorites: FavoriteService
    package let promotions: PromotionService
    package let coupons: CouponService
    package let search: SearchService
    package let feed: FeedService
    package let recommend: RecommendService
    package let pick: PickService
    package let insights: InsightService
    package let myData: MyDataService
    package let moderation: Moderation
    package let storeAdmin: StoreAdmin
    package let follows: FollowRepository
    package let notifications: NotificationRepository
    /// What front ends render the same for every viewer (the web's store page for visitors).
    package let pieces: RenderedPieces

    package init(
        accounts: AccountService, comments: CommentService, images: ImageService, stores: StoreService,
        favorites: FavoriteService, promotions: PromotionService, coupons: CouponService, search: SearchService,
        feed: FeedService,
        recommend: RecommendService, pick: PickService, insights: InsightService, myData: MyDataService,
        moderation: Moderation, storeAdmin: StoreAdmin, follows: FollowRepository,
        notifications: NotificationRepository, pieces: RenderedPieces
    ) {
        self.accounts = accounts
        self.comments = comments
        self.images = images
        self.stores = stores
        self.favorites = favorites
        self.promotions = promotions
        self.coupons = coupons
        self.search = search
        self.feed = feed
        self.recommend = recommend
        self.pick = pick
        self.insights = insights
        self.myData = myData
        self.moderation = moderation
        self.storeAdmin = storeAdmin
        self.follows = follows
        self.notifications = notifications
        self.pieces = pieces
    }
}
