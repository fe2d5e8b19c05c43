import ChidianCore

/// The composition root: every repository and service is made here, once, and the API and the web get the same
/// ones (`Services`). Repositories that read through the cache get it here, so every caller sees the same data.
package func buildServices(_ app: AppServices, sessions: SessionRepository) -> Services {
    let database = app.database
    let config = app.config
    let reads = app.caching?.reads
    let clock = app.clock
    let insights = app.insights
    let interests = InterestRepository(database: database, halfLife: config.interestHalfLife, cache: reads)
    let feedLists = reads.map { FeedLists(database: database, cache: $0) }
    let visits = StoreVisits(database: database, cache: reads)
    let signals = InterestSignals(interests: interests, visits: visits, buffer: app.signals)
    let stores = StoreRepository(database: database, cache: reads, places: app.caching?.places)
    let comments = CommentRepository(database: database, cache: reads)
    let likes = CommentLikes(database: database, cache: reads)
    let categories = CategoryRepository(database: database, cache: reads)
    let candidates = StoreCandidates(database: database)
    let popular = PopularTimesRepository(database: database, cache: reads)
    let accounts = AccountService(
        users: UserRepository(database: database), sessions: sessions,
        passwords: Passwords(cost: config.bcryptCost, pool: app.bcrypt), throttle: app.loginThrottle,
        signals: signals, clock: clock)
    return Services(
        accounts: accounts,
        comments: CommentService(
            comments: comments, likes: likes,
            replies: CommentReplies(database: database), signals: signals, clock: clock),
        images: ImageService(
            images: ImageRepository(database: database), buckets: app.buckets,
            uploadsPerDay: config.rateLimits.uploadsPerDay, cache: app.caching?.images),
        stores: StoreService(
            stores: stores, categories: categories, signals: signals, insights: insights, popular: popular,
            clock: clock),
        favorites: FavoriteService(stores: stores, signals: signals, clock: clock),
        promotions: PromotionService(
            stores: stores, promotions: PromotionRepository(database: database), insights: insights),
        coupons: CouponService(
            coupons: CouponRepository(database: database), stores: stores, throttle: app.loginThrottle,
            yielding: (
                AdmissionGate(
                    limit: config.claimConcurrency, queue: 10_000, maxWait: .seconds(10),
                    rest: Double(config.claimRest),
                    restsWhile: { [foreground = app.foreground] in foreground.isPresent }),
                app.foreground
            )),
        search: SearchService(
            search: SearchRepository(
                database: database, stores: stores, budget: config.searchRowBudget,
                gate: AdmissionGate(limit: config.searchConcurrency, queue: 64, maxWait: .seconds(1), rest: 1),
                glances: AdmissionGate(limit: config.searchConcurrency, queue: 64, maxWait: .seconds(1), rest: 1),
                caching: app.caching),
            insights: insights),
        feed: FeedService(
            feed: FeedRepository(database: database, lists: feedLists),
            candidates: FeedCandidates(database: database, lists: feedLists), interests: interests, signals: signals,
            explorePlaces: config.feedExplorePlaces, insights: insights,
            clock: clock),
        recommend: RecommendService(
            stores: stores, visits: visits, candidates: candidates,
            interests: interests, insights: insights, clock: clock),
        pick: PickService(
            stores: stores, categories: categories, candidates: candidates,
            interests: interests, insights: insights, popular: popular, clock: clock),
        insights: InsightService(insights: InsightRepository(database: database), clock: clock),
        myData: MyDataService(
            accounts: accounts, export: DataExport(database: database), deletion: AccountDeletion(database: database),
            clock: clock),
        moderation: Moderation(database: database),
        storeAdmin: StoreAdmin(database: database, categories: categories),
        follows: FollowRepository(
            database: database, buckets: app.buckets, perDay: config.followsPerDay, cache: reads),
        notifications: NotificationRepository(database: database, comments: comments, likes: likes),
        pieces: RenderedPieces(cache: reads))
}
