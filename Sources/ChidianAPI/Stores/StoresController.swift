import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's store routes: list, create, read, update, archive, and a manager's own stores; the rules are
/// `StoreService`'s.
struct StoresController {
    let service: StoreService

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
        let entry = try await service.categories.listEntry()
        return CacheableJSON(body: entry.body, etag: entry.etag, shared: true)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let sort = try StoreSort(query: query)
        // An empty `?category=` means no filter, as a form or URL builder sends it.
        let categoryID = try query.id("category", orElse: StoreError.unknownCategory(id:))
        let page = try PageRequest(request)
        let maxPrice = try query.integer(
            "maxPrice", in: CommentRules.priceRange, emptyIsAbsent: false, orElse: PlaceError.invalidMaxPrice)
        let near = try query.position()
        let openNow = try query.choice("open", emptyIsAbsent: true, orElse: PlaceError.invalidOpen) == OpenFilter.now
        if sort == .distance, near == nil { throw PlaceError.nearRequired }
        if let categoryID, try await !service.categories.exists(id: categoryID) {
            throw StoreError.unknownCategory(id: categoryID)
        }
        let viewer = context.viewer.user
        if let shared = try await service.stores.sharedList(
            sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, page: page)
        {
            if near != nil { service.insights?.shown(shared.items.map(\.store.value.id), as: .near) }
            guard let viewer else { return try WrittenJSON(body: shared).response(from: request, context: context) }
            // The viewer's part patched into the cached JSON (reading twenty views back from it cost more).
            let personal = try await service.stores.personalList(
                shared.items.map(\.store), for: viewer, near: near?.point)
            return try WrittenJSON(body: PersonalStorePage(items: personal.items, nextCursor: shared.nextCursor))
                .response(from: request, context: context)
        }
        let list = try await service.stores.list(
            sort: sort, categoryID: categoryID, maxPrice: maxPrice, near: near, openNow: openNow, page: page,
            viewer: viewer)
        if near != nil { service.insights?.shown(list.items.map(\.id), as: .near) }
        return try JSONResponse(list).response(from: request, context: context)
    }

    /// `?open=now` (absent or empty: no filter), else 400 `invalid_open`.
    enum OpenFilter: String {
        case now
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        StoreView
    > {
        let user = try StorePermissions.requireManagerRole(context)
        var request = request
        let view = try await service.open(user, body: try await request.decodeJSON(StoreService.StoreBody.self))
        return JSONResponse(view, status: .created, headers: Versioning.etag(view.version))
    }

    /// The ETag is the contract's `"<version>"`, which migration 016 bumps with everything the view shows, so it
    /// validates caches too: `If-None-Match` with the current version answers 304 without any SQL when cached.
    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let id = try context.parameters.require("id")
        let viewer = context.viewer.user
        let track = request.uri.queryParameters["track"] != "false"
        guard service.stores.cache != nil else {
            let view = try await service.stores.requireView(id: id, viewer: viewer)
            service.counted(id, managerID: view.managerId, context: context, from: request.uri.queryParameters["from"])
            await service.opened(id, viewer: context.viewer, track: track)
            return try CacheableJSON(rendering: view, etag: Versioning.tag(view.version), shared: viewer == nil)
        }
        let entry = try await service.stores.sharedEntry(id: id)
        service.counted(
            id, managerID: entry.value.managerId, context: context, from: request.uri.queryParameters["from"])
        await service.opened(id, viewer: context.viewer, track: track)
        let etag = Versioning.tag(entry.value.version)
        guard let viewer else {
            return CacheableJSON(body: ByteBuffer(bytes: entry.currentJSON), etag: etag, shared: true)
        }
        if ContentTag.matches(request, etag) { return CacheableJSON(body: ByteBuffer(), etag: etag, shared: false) }
        let view = try await service.stores.personalised([try entry.view()], for: viewer)[0]
        return try CacheableJSON(rendering: view, etag: etag, shared: false)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        StoreView
    > {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await service.stores.requireManagerID(of: id))
        let expected = try Versioning.ifMatch(request)
        var request = request
        let body = try await request.decodeJSON(StoreService.StoreBody.self)
        let view = try await service.edit(user, id: id, body: body, expectedVersion: expected)
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// Archives (the contract's delete); an `If-Match` is honoured here too.
    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try StorePermissions.requireEditor(user, managerID: try await service.stores.requireManagerID(of: id))
        try await service.stores.archive(id: id, expectedVersion: try Versioning.ifMatch(request))
        return .noContent
    }

    @Sendable func mine(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<StoreView>
    > {
        let user = try StorePermissions.requireManagerRole(context)
        return JSONResponse(try await service.stores.managed(by: user.id, page: try PageRequest(request), viewer: user))
    }
}
