import ChidianCore
import Hummingbird

/// The JSON API's routes under `/v1`: one controller per feature, each over a service the composition root built.
package struct APIRoutes {
    let services: Services
    let sessions: SessionRepository
    let hub: NotificationHub

    package init(services: Services, sessions: SessionRepository, hub: NotificationHub) {
        self.services = services
        self.sessions = sessions
        self.hub = hub
    }

    package func add(to api: RouterGroup<AppRequestContext>) {
        AccountsController(service: services.accounts).addRoutes(to: api)
        MyDataController(service: services.myData).addRoutes(to: api)
        StoresController(service: services.stores).addRoutes(to: api)
        PopularTimesController(service: services.stores).addRoutes(to: api)
        FavoritesController(service: services.favorites).addRoutes(to: api)
        PromotionsController(service: services.promotions).addRoutes(to: api)
        CouponsController(service: services.coupons).addRoutes(to: api)
        SearchController(service: services.search).addRoutes(to: api)
        CommentsController(service: services.comments).addRoutes(to: api)
        ModerationController(moderation: services.moderation).addRoutes(to: api)
        TrustController(moderation: services.moderation).addRoutes(to: api)
        ImagesController(service: services.images).addRoutes(to: api)
        FeedController(service: services.feed).addRoutes(to: api)
        RecommendController(service: services.recommend).addRoutes(to: api)
        InsightsController(service: services.insights).addRoutes(to: api)
        PickController(service: services.pick).addRoutes(to: api)
        FollowsController(follows: services.follows, likes: services.comments.likes).addRoutes(to: api)
        NotificationsController(notifications: services.notifications, hub: hub, sessions: sessions)
            .addRoutes(to: api)
    }
}
