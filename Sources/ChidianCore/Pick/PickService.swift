import Foundation

/// The pick (今天吃点啥): one store and up to two alternatives for this viewer, here and now; for the API and the web.
package struct PickService: Sendable {
    package let stores: StoreRepository
    package let categories: CategoryRepository
    package let candidates: StoreCandidates
    package let interests: InterestRepository
    package let clock: @Sendable () -> Date
    /// Impressions of the answer's stores.
    package let insights: InsightCounter?
    /// Whether the chosen store is usually quiet now (the reason `quiet`).
    package let popular: PopularTimesRepository?

    package init(
        stores: StoreRepository, categories: CategoryRepository, candidates: StoreCandidates,
        interests: InterestRepository, insights: InsightCounter? = nil, popular: PopularTimesRepository? = nil,
        clock: @escaping @Sendable () -> Date
    ) {
        self.stores = stores
        self.categories = categories
        self.candidates = candidates
        self.interests = interests
        self.insights = insights
        self.popular = popular
        self.clock = clock
    }

    /// The answer: `{store, reasons, alternatives}`.
    package struct Answer: Codable, Sendable {
        package var store: StoreView
        package var reasons: [PickReason]
        package var alternatives: [StoreView]
    }

    /// What a pick asks, from a query string (400 `invalid_near`, `invalid_radius`, `invalid_price`,
    /// `invalid_skip`, `unknown_category`).
    package struct Question: Sendable {
        package var near: NearQuery?
        package var maxPrice: Int?
        package var categoryID: String?
        package var skip: [String]

        package static let maxSkip = 50

        package init(_ query: QueryParameters) throws {
            near = try query.position()
            maxPrice = try query.integer("maxPrice", in: CommentRules.priceRange, orElse: PlaceError.invalidMaxPrice)
            categoryID = try query.id("category", orElse: StoreError.unknownCategory(id:))
            // Each must be an id that could name a store: a NUL reached PostgreSQL once and answered 500.
            skip = try query.ids("skip", max: Self.maxSkip, orElse: PlaceError.invalidSkip)
        }
    }

    /// The pick's rules and ranking, for the API and the web client alike; 404 `nothing_to_pick`.
    package func answer<G: RandomNumberGenerator>(
        _ question: Question, viewer: Viewer, english: Bool, using generator: inout G
    ) async throws -> Answer {
        let pick = try await choose(question, viewer: viewer, using: &generator)
        let views = try await stores.views(ids: pick.ranked.map(\.id), viewer: viewer.user).map {
            $0.measured(from: question.near?.point)
        }
        // A store archived between the two reads drops out; another call finds the rest.
        guard let chosen = views.first else { throw PlaceError.nothingToPick }
        let facts = PickReasons.Facts(chosen, at: pick.now)
        let answer = Answer(
            store: chosen,
            reasons: try await reasons(
                for: facts, id: chosen.id, location: chosen.location, timeZone: chosen.timeZone, pick, english: english),
            alternatives: Array(views.dropFirst().prefix(2)))
        insights?.shown([answer.store.id] + answer.alternatives.map(\.id), as: .pick)
        return answer
    }

    /// `answer`'s JSON from the stores' cached JSON (`PersonalStoreList.Item`), reading back only the chosen store
    /// for its reasons: the same bytes, without reading three stores back from JSON and writing them again (a
    /// sixth of a pick's server time). The API's with the read cache on; without it, `answer` reads the stores and
    /// the viewer's favourites in one statement.
    package func written<G: RandomNumberGenerator>(
        _ question: Question, viewer: Viewer, english: Bool, using generator: inout G
    ) async throws -> WrittenAnswer {
        let pick = try await choose(question, viewer: viewer, using: &generator)
        let entries = try await stores.sharedEntries(ids: pick.ranked.map(\.id))
        let point = question.near?.point
        let items: [PersonalStoreList.Item]
        if let user = viewer.user {
            items = try await stores.personalList(entries, for: user, near: point).items
        } else {
            items = entries.map { .init(store: $0, distance: $0.value.meters(from: point), favorited: false) }
        }
        guard let first = items.first else { throw PlaceError.nothingToPick }
        let card = first.store.value
        let facts = PickReasons.Facts(card, favorited: first.favorited, near: point, at: pick.now)
        let answer = WrittenAnswer(
            store: first,
            reasons: try await reasons(
                for: facts, id: card.id, location: card.location, timeZone: card.timeZone, pick, english: english),
            alternatives: Array(items.dropFirst().prefix(2)))
        insights?.shown([first.store.value.id] + answer.alternatives.map(\.store.value.id), as: .pick)
        return answer
    }

    /// The ranked candidates (the chosen first), whether the first explored, and what ranked them.
    private struct Pick {
        var ranked: [StoreCandidates.Candidate]
        var explored: Bool
        var ranking: PickRanking
        var now: Date
    }

    private func choose<G: RandomNumberGenerator>(
        _ question: Question, viewer: Viewer, using generator: inout G
    ) async throws -> Pick {
        if let categoryID = question.categoryID, try await !categories.exists(id: categoryID) {
            throw StoreError.unknownCategory(id: categoryID)
        }
        let now = clock()
        // Live, open now in its own zone, within the radius, at most the price (a store without one is left out
        // then), in the category, not skipped and not reviewed by the viewer lately.
        let filter = StoreFilter(
            categoryID: question.categoryID, maxPrice: question.maxPrice, near: question.near, openAt: now,
            skip: question.skip)
        let asker = StoreCandidates.Viewer(key: viewer.interestKey, userID: viewer.user?.id, now: now)
        var found: [StoreCandidates.Candidate]
        if let walked = try await candidates.walked(filter, for: asker, stores: stores) {
            // Already nearest first: the walk's order.
            found = walked
        } else {
            found = try await candidates.qualifying(filter, for: asker)
            // One order whichever way they were read, so the draws below fall alike.
            if question.near != nil { found.sort(by: StoreCandidates.Candidate.nearestFirst) }
        }
        guard !found.isEmpty else { throw PlaceError.nothingToPick }
        let state = try await interests.state(viewer: viewer.interestKey, at: now)
        let ranking = PickRanking(
            interests: PickRanking.weights(state.interests), radius: question.near.map { Double($0.radius) },
            unshown: state.isCold ? state.arms : state.unshown())
        let (ranked, explored) = ranking.choose(found, using: &generator)
        return Pick(ranked: ranked, explored: explored, ranking: ranking, now: now)
    }

    /// The chosen store's reasons: `quiet` when it is usually quiet now.
    private func reasons(
        for chosen: PickReasons.Facts, id: String, location: GeoPoint?, timeZone: String, _ pick: Pick, english: Bool
    ) async throws -> [PickReason] {
        let quiet = try await popular?.isQuiet(storeID: id, location: location, timeZone: timeZone, at: pick.now)
        // The category as ranked: the chosen store is one of the candidates.
        let category = pick.ranked.first { $0.id == id }?.categoryID
        return PickReasons.reasons(
            for: chosen, interest: category.flatMap { pick.ranking.interests[$0] } ?? 0,
            explored: pick.explored && id == pick.ranked.first?.id, quiet: quiet == true, english: english)
    }
}

/// `PickService.Answer` from the stores' cached JSON (`PickService.written`).
package struct WrittenAnswer: JSONWritable, Sendable {
    package var store: PersonalStoreList.Item
    package var reasons: [PickReason]
    package var alternatives: [PersonalStoreList.Item]

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("store"); store.write(to: &json)
            json.key("reasons"); PickReason.write(reasons, to: &json)
            json.key("alternatives"); json.array(alternatives) { json, item in item.write(to: &json) }
        }
    }
}

extension PickReason {
    static func write(_ reasons: [PickReason], to json: inout JSONWriter) {
        json.array(reasons) { json, reason in
            json.object { json in
                json.key("kind"); json.string(reason.kind.rawValue)
                json.key("text"); json.string(reason.text)
            }
        }
    }
}

/// The pick's answer written directly (`JSONEncoder` was a quarter of a pick's server time).
extension PickService.Answer: JSONWritable {
    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("store"); store.write(to: &json)
            json.key("reasons"); PickReason.write(reasons, to: &json)
            json.key("alternatives"); json.array(alternatives) { json, store in store.write(to: &json) }
        }
    }
}
