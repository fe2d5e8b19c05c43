import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Reviews and notices" routes, plus the per-user comment lists; the rules are `CommentService`'s.
struct CommentsController {
    let service: CommentService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/comments", use: storeComments)
        group.post("stores/:id/comments", use: create)
        group.get("comments/:id", use: read)
        group.patch("comments/:id", use: edit)
        group.delete("comments/:id", use: delete)
        group.get("users/:id/comments", use: userComments)
        group.get("me/comments", use: myComments)
        group.put("comments/:id/like", use: like)
        group.delete("comments/:id/like", use: unlike)
        group.put("comments/:id/reply", use: reply)
        group.delete("comments/:id/reply", use: deleteReply)
    }

    // MARK: Replies

    struct ReplyBody: Decodable {
        var body: String?
    }

    @Sendable func reply(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        CommentView
    > {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        var request = request
        let body = try CommentReplies.validBody(try await request.decodeJSON(ReplyBody.self).body)
        let view = try await service.replies.put(commentID: id, user: user, body: body)
        return JSONResponse(try await service.likes.mark(view, viewerID: user.id))
    }

    @Sendable func deleteReply(_ request: Request, context: AppRequestContext) async throws
        -> HTTPResponse.Status
    {
        try await service.replies.delete(commentID: try context.parameters.require("id"), user: context.requireUser())
        return .noContent
    }

    // MARK: Likes

    @Sendable func like(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await service.setLike(true, commentID: try context.parameters.require("id"), viewer: context.viewer)
        return .noContent
    }

    @Sendable func unlike(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await service.setLike(false, commentID: try context.parameters.require("id"), viewer: context.viewer)
        return .noContent
    }

    // MARK: Lists

    @Sendable func storeComments(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let storeID = try context.parameters.require("id")
        let query = QueryParameters(request)
        let kind: CommentKind? = try query.choice(
            "kind", orElse: Problem.badRequest("invalid_kind", "kind must be \"review\" or \"notice\"."))
        let sort =
            try query.choice(
                "sort",
                orElse: Problem.badRequest("invalid_sort", "sort must be \"newest\", \"rating\" or \"helpful\".")
            ) ?? CommentSort.newest
        let recommended =
            try query.choice(
                "recommended",
                orElse: Problem.badRequest("invalid_recommended", "recommended must be true or false.")
            ) != Shelf.false
        let page = try await service.comments.storePage(
            storeID: storeID, kind: kind, sort: sort, page: try PageRequest(request), recommended: recommended)
        guard let viewer = context.viewer.user else {
            return CacheableJSON(kept: page.body, etag: page.etag, shared: true)
        }
        let liked = try await service.likes.likedIDs(page.ids, by: viewer.id)
        if liked.isEmpty { return CacheableJSON(kept: page.body, etag: page.etag, shared: false) }
        let marked = try page.marking(liked)
        return CacheableJSON(body: ByteBuffer(bytes: marked), etag: ContentTag.of(marked), shared: false)
    }

    @Sendable func userComments(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<CommentView>
    > {
        let userID = try context.parameters.require("id")
        let page = try PageRequest(request)
        let found = try await service.comments.userComments(
            userID: userID, page: page, own: context.viewer.user?.id == userID)
        if found.items.isEmpty, try await !service.comments.userExists(id: userID) {
            throw AccountError.userNotFound("No user \(userID.prefix(64)).")
        }
        return JSONResponse(try await service.likes.mark(found, viewerID: context.viewer.user?.id))
    }

    @Sendable func myComments(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<CommentView>
    > {
        let user = try context.requireUser()
        let found = try await service.comments.userComments(userID: user.id, page: try PageRequest(request))
        return JSONResponse(try await service.likes.mark(found, viewerID: user.id))
    }

    // MARK: One comment

    /// Users write reviews; managers write notices on their own stores; admins write nothing.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        CommentView
    > {
        let user = try context.requireUser()
        let storeID = try context.parameters.require("id")
        let kind = try await service.writableKind(storeID: storeID, user: user)
        var request = request
        let draft = try CommentService.draft(try await request.decodeJSON(CommentService.Fields.self), kind: kind)
        let view = try await service.post(
            storeID: storeID, user: user, kind: kind, draft: draft, origin: context.origin)
        var headers = Versioning.etag(view.version)
        headers[.location] = "/v1/comments/\(view.id)"
        return JSONResponse(view, status: .created, headers: headers)
    }

    /// `?track=false` is accepted; click tracking is added by the feed.
    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        CommentView
    > {
        let view = try await service.open(
            id: try context.parameters.require("id"), viewer: context.viewer,
            track: request.uri.queryParameters["track"] != "false")
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// Only the author edits, admins included in "everyone else".
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        CommentView
    > {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        let target = try await service.editable(id: id, user: user)
        let ifMatch = try Versioning.ifMatch(request)
        var request = request
        let patch = try await request.decodeJSON(CommentService.Patch.self)
        let view = try await service.edit(target, id: id, user: user, patch: patch, ifMatch: ifMatch)
        // An author cannot like their own review: `liked` is false here.
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// The author or an admin; `If-Match` is honoured here too.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        try await service.delete(id: id, user: user, ifMatch: try Versioning.ifMatch(request))
        return .noContent
    }
}

extension CommentsController {
    /// `?recommended=`: which of a store's lists (issue #48).
    enum Shelf: String {
        case `true`, `false`
    }
}
