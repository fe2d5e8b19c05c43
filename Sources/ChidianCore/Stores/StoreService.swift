import Foundation

/// The rules of opening, editing and counting stores: one place for the API and the web.
package struct StoreService: Sendable {
    package let stores: StoreRepository
    package let categories: CategoryRepository
    /// Opening a store teaches the recommender (its category, and "also viewed").
    package let signals: InterestSignals?
    /// Views, visitors and clicks for the store's insights.
    package let insights: InsightCounter?
    /// How busy each store usually is, from the views `insights` counts.
    package let popular: PopularTimesRepository
    package let clock: @Sendable () -> Date

    package init(
        stores: StoreRepository, categories: CategoryRepository, signals: InterestSignals? = nil,
        insights: InsightCounter? = nil, popular: PopularTimesRepository? = nil,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.stores = stores
        self.categories = categories
        self.signals = signals
        self.insights = insights
        self.popular = popular ?? PopularTimesRepository(database: stores.database)
        self.clock = clock
    }

    /// How busy a live store usually is, and the time it was asked at (404 `store_not_found`).
    package func popularTimes(id: String) async throws -> (times: PopularTimes, at: Date) {
        let view = try await stores.requireView(id: id, viewer: nil)
        let now = clock()
        return (try await popular.popularTimes(storeID: id, timeZone: view.timeZone, at: now), now)
    }

    /// Counts `viewer` opening a live store (`?track=false` opts out), for the API and the web client alike.
    package func opened(_ storeID: String, viewer: Viewer, track: Bool = true) async {
        guard track else { return }
        await signals?.record(.storeOpened, viewer: viewer, storeID: storeID, at: clock())
    }

    /// Counts a view of the store, and a click from the card it came from (`?from=`; an unknown source counts
    /// the view alone), unless the viewer is the store's manager.
    package func counted(_ storeID: String, managerID: String, context: AppRequestContext, from raw: Substring?) {
        guard let insights, context.viewer.user?.id != managerID else { return }
        insights.view(
            storeID: storeID, viewer: context.viewer, address: context.clientAddress,
            from: raw.flatMap { InsightSource(rawValue: String($0)) })
    }

    /// Field types are checked by the decoder (400 `invalid_body` naming the field); absent or null means
    /// "not given" (for PATCH: unchanged).
    /// `location`, `hours` and `timeZone` tell absent (unchanged) from null (cleared), so they are kept raw.
    package struct StoreBody: Decodable {
        package var name: String?
        package var categoryId: String?
        package var description: String?
        package var address: String?
        package var imageIds: [String]?
        package var location: JSONValue?
        package var hours: JSONValue?
        package var timeZone: JSONValue?

        package enum CodingKeys: String, CodingKey {
            case name, categoryId, description, address, imageIds, location, hours, timeZone
        }

        package init(
            name: String? = nil, categoryId: String? = nil, description: String? = nil, address: String? = nil,
            imageIds: [String]? = nil, location: JSONValue? = nil, hours: JSONValue? = nil, timeZone: JSONValue? = nil
        ) {
            self.name = name
            self.categoryId = categoryId
            self.description = description
            self.address = address
            self.imageIds = imageIds
            self.location = location
            self.hours = hours
            self.timeZone = timeZone
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            categoryId = try container.decodeIfPresent(String.self, forKey: .categoryId)
            description = try container.decodeIfPresent(String.self, forKey: .description)
            address = try container.decodeIfPresent(String.self, forKey: .address)
            imageIds = try container.decodeIfPresent([String].self, forKey: .imageIds)
            // A present key decodes to `.null` when null, so "clear" survives.
            func raw(_ key: CodingKeys) throws -> JSONValue? {
                container.contains(key) ? try container.decode(JSONValue.self, forKey: key) : nil
            }
            location = try raw(.location)
            hours = try raw(.hours)
            timeZone = try raw(.timeZone)
        }

        package func place() throws -> PlaceFields {
            try PlaceFields(location: location, hours: hours, timeZone: timeZone)
        }
    }

    /// Opening a store's rules (`user` is a manager), for the API and the web client alike.
    package func open(_ user: AuthUser, body: StoreBody) async throws -> StoreView {
        let draft = StoreRepository.Draft(
            name: try StoreRules.validName(body.name),
            categoryID: body.categoryId ?? "",
            description: try StoreRules.validDescription(body.description),
            address: try StoreRules.validAddress(body.address),
            imageIDs: try StoreRules.checkImageCount(body.imageIds ?? []),
            place: try body.place())
        let id = try await stores.create(draft, managerID: user.id)
        return try await stores.requireView(id: id, viewer: user)
    }

    /// Editing's rules once the editor is known to be the store's manager or an admin (`requireEditor`).
    package func edit(_ user: AuthUser, id: String, body: StoreBody, expectedVersion expected: Int?) async throws
        -> StoreView
    {
        let changes = StoreRepository.Changes(
            name: try body.name.map(StoreRules.validName),
            categoryID: body.categoryId,
            description: try body.description.map(StoreRules.validDescription),
            address: try body.address.map(StoreRules.validAddress),
            imageIDs: try body.imageIds.map(StoreRules.checkImageCount),
            place: try body.place())
        try await stores.update(id: id, changes: changes, actorID: user.id, expectedVersion: expected)
        return try await stores.requireView(id: id, viewer: user)
    }
}
