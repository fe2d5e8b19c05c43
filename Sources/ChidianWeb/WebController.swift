import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// The server-rendered web client. Every page is complete HTML (links can be shared and indexed, pages work
/// with scripts off) and reaches the data through the same services as the JSON API, so the API's rules hold
/// here too.
package struct WebController {
    let pages: WebPages
    let services: Services
    /// Who signs a browser in: the session cookie holds the API's bearer token.
    let sessions: SessionRepository

    var stores: StoreRepository { services.stores.stores }
    var comments: CommentService { services.comments }

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("/", use: home)
        group.get("stores/:id", use: store)
        group.get("comments/:id", use: comment)
        group.get("users/:id", use: user)
        group.get("search", use: find)
        group.post("stores/:id/favorite", use: favorite)
        group.post("stores/:id/unfavorite", use: unfavorite)
        group.post("stores/:id/comments", use: postComment)
        group.post("comments/:id/like", use: like)
        group.post("comments/:id/unlike", use: unlike)
        WebAccountPages(pages: pages, accounts: services.accounts, sessions: sessions).addRoutes(to: group)
        WebMePages(
            pages: pages, accounts: services.accounts, stores: stores, comments: comments, images: services.images,
            signals: services.feed.signals, clock: services.feed.clock, myData: services.myData
        ).addRoutes(to: group)
        WebPeoplePages(pages: pages, notifications: services.notifications, follows: services.follows)
            .addRoutes(to: group)
        WebAdminPages(
            pages: pages, moderation: services.moderation, admin: services.storeAdmin, insights: services.insights
        ).addRoutes(to: group)
        WebManagePages(
            pages: pages, storeService: services.stores, promotions: services.promotions,
            categories: services.stores.categories, comments: comments, images: services.images,
            insightService: services.insights, coupons: WebCouponPages(pages: pages, coupons: services.coupons)
        ).addRoutes(to: group)
        WebPickPages(pages: pages, pick: services.pick).addRoutes(to: group)
        WebNotRecommendedPages(pages: pages, stores: stores, comments: comments).addRoutes(to: group)
        WebCouponPages(pages: pages, coupons: services.coupons).addRoutes(to: group)
    }

    // MARK: Pages

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let page = try PageRequest(request)
        // The cards show what everyone sees: rendered from the stores' shared entries, each once (`storeCards`).
        async let promoted = stores.promotedEntries(limit: 10)
        async let forYou =
            page.cursor == nil
            ? services.recommend.forYouEntries(viewer: context.viewer, limit: 10, newVisitor: context.newVisitor)
            : []
        var generator = SeededRandom.forRequest()
        let featured = try await services.feed.featuredPage(
            viewer: context.viewer, page: page, newVisitor: context.newVisitor, using: &generator)
        services.stores.insights?.shown(try await promoted.map(\.value.id), as: .daily)
        var model: TemplateFields = [
            "promotedCards": try await pages.storeCards(promoted, language: language, from: .daily),
            "hasPromoted": try await !promoted.isEmpty,
            "forYouCards": try await pages.storeCards(forYou, language: language, from: .feed),
            "hasForYou": try await !forYou.isEmpty,
            "explored": featured.personalization.explore.map { ["id": $0.id, "name": $0.name] },
            "hasExplored": !featured.personalization.explore.isEmpty,
            // Without a like button (no one signed in), a card is the same for everyone: kept, not rendered again.
            "commentCards": context.viewer.user == nil
                ? pages.anonymousCommentCards(featured.items, language: language) : nil,
            "comments": context.viewer.user == nil
                ? nil : featured.items.map { CommentCardModel($0, viewer: context.viewer, language: language) },
            "interests": featured.personalization.categories.map { ["id": $0.id, "name": $0.name] },
            "hasInterests": !featured.personalization.categories.isEmpty,
            "next": featured.nextCursor.map { "/?cursor=\(Self.escapeQuery($0))" },
            "back": "/",
            "cities": WebPickPages.cityOptions(language),
        ]
        if request.uri.queryParameters["deleted"] != nil { model["accountDeleted"] = true }
        return pages.render("home", title: language.text("home"), model: model, context: context)
    }

    @Sendable func store(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let id = try context.parameters.require("id")
        let sortName = request.uri.queryParameters["sort"].map(String.init) ?? "newest"
        let sort = CommentSort(rawValue: sortName) ?? .newest
        let page = try PageRequest(request)
        let card: StoreCard
        let main: PagePart
        if context.viewer.user == nil {
            // A visitor sees what every visitor sees: one shared piece, dropped by any write to what it shows (the
            // store, its reviews and their authors), with the store's card beside it, so a hit reads nothing else
            // and a page for visitors only keeps no store entry (docs/CACHING.md).
            let key = "store:\(id):\(sort.rawValue):\(page.limit):\(page.cacheKey):\(language.rawValue)"
            (main, card) = try await services.pieces.piece(key) { [self] in
                guard let view = try await stores.views(ids: [id], viewer: nil, keep: false).first else {
                    throw StoreRepository.notFound(id)
                }
                // Read for the piece, not kept beside it.
                let list = try await comments.comments.storeComments(storeID: id, kind: nil, sort: sort, page: page)
                let bytes = pages.render(
                    "store", model: storeModel(view, list, list.items, sort: sort, viewer: .nobody, language: language),
                    language: language, csrf: "", viewer: nil)
                let tags = ["s:" + id, "c:" + id] + Set(list.items.map(\.author.id)).map { "a:" + $0 }
                return (bytes, tags, StoreCard(view))
            } extraCost: {
                StoreCard.cost($0)
            }
        } else {
            let view = try await stores.requireView(id: id, viewer: context.viewer.user)
            card = StoreCard(view)
            let list = try await comments.comments.storeCommentViews(storeID: id, kind: nil, sort: sort, page: page)
            let items = try await comments.likes.mark(list.items, viewerID: context.viewer.user?.id)
            main = .plain(
                pages.render(
                    "store",
                    model: storeModel(view, list, items, sort: sort, viewer: context.viewer, language: language),
                    language: language, csrf: context.web?.csrfToken ?? "", viewer: context.viewer.user))
        }
        services.stores.counted(
            id, managerID: card.managerId, context: context, from: request.uri.queryParameters["from"])
        await services.stores.opened(id, viewer: context.viewer)
        // "Also viewed" looks the same to everyone and changes with every batch of opens: a piece of its own, so
        // those batches re-render ten cards, not the reviews.
        let also = try await services.pieces.piece("also:\(id):\(language.rawValue)") { [self] in
            let stores = try await services.recommend.alsoViewed(ofLive: id, limit: 10, viewer: .nobody, keep: false)
            let model: TemplateFields = [
                "alsoViewed": stores.map { StoreCardModel($0, language: language) }, "hasAlsoViewed": !stores.isEmpty,
            ]
            let bytes = pages.render("alsoViewed", model: model, language: language, csrf: "", viewer: nil)
            return (bytes, ["v:" + id] + stores.map { "s:" + $0.id })
        }
        // Coupons change with every claim: read per request, only for a store that has any (its card says).
        let coupons = try await WebCouponPages(pages: pages, coupons: services.coupons).section(
            card, context: context, error: request.uri.queryParameters["coupon"].map(String.init))
        let popular = try await popularTimes(card, language: language)
        return try pages.page(
            parts: [main, .plain(coupons), popular, also], title: card.name, request: request, context: context)
    }

    /// Today's popular times with how busy now usually is; nothing until the store has enough views. The same for
    /// everyone: a piece per store, language and slot of the counts' freshness.
    private func popularTimes(_ store: StoreCard, language: Language) async throws -> PagePart {
        let freshness = PopularTimesRepository.pageFreshness
        let now = services.stores.clock()
        let slot = PopularTimesRepository.slot(now, freshness)
        return try await services.pieces.piece("popular:\(store.id):\(language.rawValue):\(slot)") { [self] in
            // The piece holds what the counts show for this slot: they need no entry of their own.
            let times = try await services.stores.popular.popularTimes(
                storeID: store.id, timeZone: store.timeZone, at: now, freshness: freshness, keep: false)
            let week = times.week
            guard let level = times.level(at: now), !week.isEmpty else { return ([], []) }
            let (day, hour) = times.local(now)
            let hours = week[day - 1].hours
            let model: TemplateFields = [
                "level": level.rawValue, "levelText": language.text("busy." + level.rawValue),
                "caption": language.text("popularToday"),
                "svg": PopularTimesChart(hours: hours, current: hour).svg,
                "hours": hours.enumerated().map {
                    ["label": "\($0.offset):00", "share": $0.element] as TemplateFields
                },
            ]
            return (pages.render("popularTimes", model: model, language: language, csrf: "", viewer: nil), [])
        }
    }

    private func storeModel(
        _ view: StoreView, _ list: Page<CommentView>, _ items: [CommentView], sort: CommentSort, viewer: Viewer,
        language: Language
    ) -> TemplateFields {
        let path = "/stores/\(Self.escapePath(view.id))"
        return [
            "store": StorePageModel(view, language: language),
            "comments": items.map { CommentCardModel($0, viewer: viewer, language: language) },
            "hasComments": !items.isEmpty,
            "sorts": [CommentSort.newest, .rating, .helpful].map { option in
                [
                    "href": "\(path)?sort=\(option.rawValue)",
                    "label": language.text(
                        "sort" + option.rawValue.prefix(1).uppercased() + option.rawValue.dropFirst()),
                    "current": option == sort,
                ] as TemplateFields
            },
            "next": list.nextCursor.map { "\(path)?sort=\(sort.rawValue)&cursor=\(Self.escapeQuery($0))" },
            "notRecommended": WebNotRecommendedPages.link(view, language: language),
            "back": path,
            "loginHref": "/login?next=\(Self.escapeQuery(path))",
            "write": Self.writeForm(store: view, viewer: viewer.user, path: path, language: language),
        ]
    }

    @Sendable func comment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let view = try await comments.open(
            id: try context.parameters.require("id"), viewer: context.viewer, track: true)
        let store = try await stores.view(id: view.storeId, viewer: context.viewer.user)
        var model: TemplateFields = [
            "comment": CommentCardModel(view, viewer: context.viewer, language: language), "cardIsPage": true,
            "store": store.map { StorePageModel($0, language: language) },
            "back": "/comments/\(Self.escapePath(view.id))",
            "loginHref": "/login?next=\(Self.escapeQuery("/comments/\(Self.escapePath(view.id))"))",
        ]
        if let user = context.viewer.user, user.id != view.author.id {
            model["canReport"] = true
            model["reasons"] = Moderation.reasons.map { ["value": $0, "label": language.text("reason." + $0)] }
        }
        if request.uri.queryParameters["reported"] != nil { model["reported"] = true }
        if context.viewer.user?.role == .admin, view.kind == .review {
            // An admin judges the review here, as in the trust queue (`/admin#trust`).
            model["judge"] = ["id": view.id, "recommended": view.recommended] as TemplateFields
            model["judged"] = request.uri.queryParameters["judged"] != nil
        }
        let title = "\(view.author.name) · \(view.store.name)"
        return pages.render("comment", title: title, model: model, context: context)
    }

    @Sendable func user(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let id = try context.parameters.require("id")
        let viewerID = context.viewer.user?.id
        guard let view = try await services.accounts.users.view(id: id, viewerID: viewerID) else {
            throw AccountError.userNotFound("No user \(id.prefix(64)).")
        }
        let list = try await comments.comments.userComments(
            userID: id, page: try PageRequest(request), own: viewerID == id)
        let items = try await comments.likes.mark(list.items, viewerID: context.viewer.user?.id)
        let path = "/users/\(Self.escapePath(id))"
        let model: TemplateFields = [
            "user": ProfileModel(view, language: language),
            "canFollow": viewerID != nil && viewerID != view.id, "following": view.following,
            "comments": items.map { CommentCardModel($0, viewer: context.viewer, language: language) },
            "hasComments": !items.isEmpty,
            "next": list.nextCursor.map { "\(path)?cursor=\(Self.escapeQuery($0))" },
            "back": path,
        ]
        return pages.render("user", title: view.name, model: model, context: context)
    }

    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        let raw = SearchQuery.formValue("q", in: request.uri.query) ?? ""
        let query = try SearchQuery(raw)
        let result = try await services.search.search(
            query, page: try PageRequest(request), viewer: context.viewer.user)
        let items: [TemplateFields] = result.items.map { item in
            [
                "store": StoreCardModel(item.store, language: language, from: .search),
                "matches": item.matches.map { match -> String in
                    switch match.field {
                    case .name: return "\(language.text("matchName")): \(match.text)"
                    case .category: return "\(language.text("matchCategory")): \(match.text)"
                    case .dish:
                        return
                            "\(language.text("matchDish")): \(match.text) · \(match.count ?? 0) \(language.text("mentions"))"
                    }
                },
            ]
        }
        // The API's order is name matches, then category matches, then dish matches: one heading per group.
        var groups: [(field: SearchMatch.Field, items: [TemplateFields])] = []
        for (item, result) in zip(items, result.items) {
            let field = result.matches.first?.field ?? .dish
            if groups.last?.field != field {
                groups.append((field, [item]))
            } else {
                groups[groups.count - 1].items.append(item)
            }
        }
        let model: TemplateFields = [
            "q": query.text,
            "groups": groups.map { group -> TemplateFields in
                let heading = ["name": "groupName", "category": "groupCategory", "dish": "groupDish"][
                    group.field.rawValue]!
                return ["field": group.field.rawValue, "heading": language.text(heading), "items": group.items]
            },
            "hasItems": !items.isEmpty,
            "approximate": result.approximate,
            "next": result.nextCursor.map {
                "/search?q=\(Self.escapeQuery(query.text))&cursor=\(Self.escapeQuery($0))"
            },
        ]
        return pages.render(
            "search", title: "\(language.text("search")): \(query.text)", model: model, context: context,
            query: query.text)
    }

    /// The store page's writing form for this viewer: a review for users, a notice for the store's manager.
    static func writeForm(store: StoreView, viewer: AuthUser?, path: String, language: Language)
        -> TemplateFields?
    {
        guard let viewer, viewer.role == .user || (viewer.role == .manager && viewer.id == store.managerId) else {
            return nil
        }
        let isReview = viewer.role == .user
        return [
            "heading": language.text(isReview ? "writeReview" : "writeNotice"), "action": "\(path)/comments",
            "isReview": isReview,
            "ratings": (1...5).reversed().map {
                ["value": $0, "label": String(repeating: "★", count: $0)] as TemplateFields
            },
            "scores": ["taste", "environment", "service"].map { ["name": $0, "label": language.text($0)] },
        ]
    }

    // MARK: Forms

    @Sendable func favorite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let id = try context.parameters.require("id")
        try await services.favorites.set(true, storeID: id, viewer: context.viewer, user: try context.requireUser())
        return WebPages.redirect(to: Self.localPath(form["back"]) ?? "/stores/\(Self.escapePath(id))")
    }

    @Sendable func unfavorite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let id = try context.parameters.require("id")
        try await services.favorites.set(false, storeID: id, viewer: context.viewer, user: try context.requireUser())
        return WebPages.redirect(to: Self.localPath(form["back"]) ?? "/stores/\(Self.escapePath(id))")
    }

    /// The store page's form: a review (or a manager's notice) with photos, by the API's rules. The text is
    /// checked before any photo is stored; the photos then go through the upload rules one by one.
    @Sendable func postComment(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context, maxBytes: WebForm.maxUploadBytes)
        let user = try context.requireUser()
        let storeID = try context.parameters.require("id")
        let kind = try await comments.writableKind(storeID: storeID, user: user)
        func number(_ name: String) -> JSONValue? {
            guard let raw = form[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return Int(raw).map(JSONValue.integer) ?? .string(raw)
        }
        var scores: [String: JSONValue] = [:]
        for key in ["taste", "environment", "service"] { scores[key] = number(key) }
        var draft = try CommentService.draft(
            .init(
                rating: number("rating"), body: form["body"], imageIds: [],
                scores: scores.isEmpty ? nil : .object(scores), pricePerPerson: number("pricePerPerson")),
            kind: kind)
        guard form.photos.count <= CommentRules.maxImages else {
            throw CommentError.invalidImages("A comment holds at most \(CommentRules.maxImages) images.")
        }
        for photo in form.photos { draft.imageIDs.append(try await services.images.store(photo, user: user).id) }
        let view = try await comments.post(
            storeID: storeID, user: user, kind: kind, draft: draft, origin: context.origin)
        return WebPages.redirect(to: "/comments/\(Self.escapePath(view.id))")
    }

    @Sendable func like(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setLike(true, request: request, context: context)
    }

    @Sendable func unlike(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await setLike(false, request: request, context: context)
    }

    func setLike(_ on: Bool, request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await WebForm.read(request, context: context)
        let id = try context.parameters.require("id")
        _ = try context.requireUser()
        try await comments.setLike(on, commentID: id, viewer: context.viewer)
        return WebPages.redirect(to: Self.localPath(form["back"]) ?? "/comments/\(Self.escapePath(id))")
    }

    // MARK: Helpers

    /// A path on this site to return to after a form, or nil: never another origin (`//host`, `/\host`).
    static func localPath(_ raw: String?) -> String? {
        guard let raw, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.hasPrefix("/\\"), raw.utf8.count <= 2048,
            !raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return raw
    }

    static func escapePath(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? segment
    }

    static func escapeQuery(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(["-", "_", ".", "~"])) ?? value
    }

    package init(pages: WebPages, services: Services, sessions: SessionRepository) {
        self.pages = pages
        self.services = services
        self.sessions = sessions
    }
}
