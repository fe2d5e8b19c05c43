import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's store routes: list, create, read, update, archive, and a manager's own stores.
struct StoresController {
    let stores: StoreRepository
    let categories: CategoryRepository
    /// Opening a store teaches the recommender (its category, and "also viewed").
    let signals: InterestSignals?
    /// Views, visitors and clicks for the store's insights.
    let insights: InsightCounter?
    let clock: @Sendable () -> Date

    init(
        database: Database, cache: ReadCache? = nil, signals: InterestSignals? = nil, insights: InsightCounter? = nil,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.insights = insights
        stores = StoreRepository(database: database, cache: cache)
        categories = CategoryRepository(database: database, cache: cache)
        self.signals = signals
        self.clock = clock
    }

    /// Counts `viewer` opening a live store (`?track=false` opts out), for the API and the web client alike.
    func opened(_ storeID: String, viewer: Viewer, track: Bool = true) async {
        guard track else { return }
        await signals?.record(.storeOpened, viewer: viewer, storeID: storeID, at: clock())
    }

    /// Counts a view of the store, and a click from the card it came from (`?from=`; an unknown source counts
    /// the view alone), unless the viewer is the store's manager.
    func counted(_ storeID: String, managerID: String, context: AppRequestContext, from raw: Substring?) {
        guard let insights, context.viewer.user?.id != managerID else { return }
        insights.view(
            storeID: storeID, viewer: context.viewer, address: context.clientAddress,
            from: raw.flatMap { InsightSource(rawValue: String($0)) })
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("categories", use: listCategories)
        group.get("stores", use: list)
        group.post("stores", use: create)
        group.get("stores/:id", use: read)
        group.patch("stores/:id", use: update)
        group.delete("stores/:id", use: archive)
        group.get("me/stores", use: mine)
    }

    @Sendable func listCategories(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let entry = try await categories.listEntry()
        return CacheableJSON(body: entry.body, etag: entry.etag, shared: true)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let sort = try StoreSort(query: query["sort"].map(String.init))
        // An empty `?category=` means no filter, as a form or URL builder sends it.
        let categoryID = query["category"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let page = try PageRequest(request)
        let maxPrice = try query["maxPrice"].map { raw -> Int in
            guard let price = Int(String(raw)), CommentRules.priceRange.contains(price) else {
                throw Problem.badRequest("invalid_price", "maxPrice must be an integer from 1 to 100000.")
            }
            return price
        }
        let near = try NearQuery.parse(near: query["near"].map(String.init), radius: query["radius"].map(String.init))
        let openNow = try Self.openFilter(query["open"].map(String.init))
        if sort == .distance, near == nil { throw PlaceError.nearRequired }
        if let categoryID, try await !categories.exists(id: categoryID) {
            throw StoreError.unknownCategory(id: categoryID)
        }
        let viewer = context.viewer.user
        if viewer == nil,
            let shared = try await stores.sharedList(
                sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, page: page)
        {
            if near != nil { insights?.shown(shared.items.map(\.store.value.id), as: .near) }
            return try WrittenJSON(body: shared).response(from: request, context: context)
        }
        let list = try await stores.list(
            sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, page: page,
            viewer: viewer)
        if near != nil { insights?.shown(list.items.map(\.id), as: .near) }
        return try JSONResponse(list).response(from: request, context: context)
    }

    /// `?open=now` (absent or empty: no filter), else 400 `invalid_open`.
    static func openFilter(_ raw: String?) throws -> Bool {
        guard let raw, !raw.isEmpty else { return false }
        guard raw == "now" else { throw PlaceError.invalidOpen }
        return true
    }

    /// Field types are checked by the decoder (400 `invalid_body` naming the field); absent or null means
    /// "not given" (for PATCH: unchanged).
    /// `location`, `hours` and `timeZone` tell absent (unchanged) from null (cleared), so they are kept raw.
    struct StoreBody: Decodable {
        var name: String?
        var categoryId: String?
        var description: String?
        var address: String?
        var imageIds: [String]?
        var location: JSONValue?
        var hours: JSONValue?
        var timeZone: JSONValue?

        enum CodingKeys: String, CodingKey {
            case name, categoryId, description, address, imageIds, location, hours, timeZone
        }

        init(
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

        init(from decoder: any Decoder) throws {
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

        func place() throws -> PlaceFields {
            try PlaceFields(location: location, hours: hours, timeZone: timeZone)
        }
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<StoreView> {
        let user = try StorePermissions.requireManagerRole(context)
        var request = request
        let view = try await open(user, body: try await request.decodeJSON(StoreBody.self))
        return JSONResponse(view, status: .created, headers: Versioning.etag(view.version))
    }

    /// Opening a store's rules (`user` is a manager), for the API and the web client alike.
    func open(_ user: AuthUser, body: StoreBody) async throws -> StoreView {
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

    /// The ETag is the contract's `"<version>"`, which migration 016 bumps with everything the view shows, so it
    /// validates caches too: `If-None-Match` with the current version answers 304 without any SQL when cached.
    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let id = try context.parameters.require("id")
        let viewer = context.viewer.user
        let track = request.uri.queryParameters["track"] != "false"
        guard stores.cache != nil else {
            let view = try await stores.requireView(id: id, viewer: viewer)
            counted(id, managerID: view.managerId, context: context, from: request.uri.queryParameters["from"])
            await opened(id, viewer: context.viewer, track: track)
            return try CacheableJSON(rendering: view, etag: Versioning.tag(view.version), shared: viewer == nil)
        }
        let entry = try await stores.sharedEntry(id: id)
        counted(id, managerID: entry.value.managerId, context: context, from: request.uri.queryParameters["from"])
        await opened(id, viewer: context.viewer, track: track)
        let etag = Versioning.tag(entry.value.version)
        guard let viewer else {
            return CacheableJSON(body: ByteBuffer(bytes: entry.currentJSON), etag: etag, shared: true)
        }
        if ContentTag.matches(request, etag) { return CacheableJSON(body: ByteBuffer(), etag: etag, shared: false) }
        let view = try await stores.personalised([entry.value], for: viewer)[0]
        return try CacheableJSON(rendering: view, etag: etag, shared: false)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<StoreView> {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await stores.requireManagerID(of: id))
        let expected = try Versioning.ifMatch(request)
        var request = request
        let body = try await request.decodeJSON(StoreBody.self)
        let view = try await edit(user, id: id, body: body, expectedVersion: expected)
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// Editing's rules once the editor is known to be the store's manager or an admin (`requireEditor`).
    func edit(_ user: AuthUser, id: String, body: StoreBody, expectedVersion expected: Int?) async throws
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

    /// Archives (the contract's delete); an `If-Match` is honoured here too.
    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await stores.requireManagerID(of: id))
        try await stores.archive(id: id, expectedVersion: try Versioning.ifMatch(request))
        return .noContent
    }

    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<Page<StoreView>> {
        let user = try StorePermissions.requireManagerRole(context)
        return JSONResponse(try await stores.managed(by: user.id, page: try PageRequest(request), viewer: user))
    }
}
