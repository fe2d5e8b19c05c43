import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Following people and the reviews of those one follows.
struct FollowsController {
    let follows: FollowRepository
    let likes: CommentLikes

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.put("users/:id/follow", use: follow)
        group.delete("users/:id/follow", use: unfollow)
        group.get("users/:id/followers", use: followers)
        group.get("users/:id/following", use: following)
        group.get("feed/following", use: feed)
    }

    @Sendable func follow(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await follows.set(true, followerID: user.id, followeeID: try context.parameters.require("id"))
        return .noContent
    }

    @Sendable func unfollow(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        try await follows.set(false, followerID: user.id, followeeID: try context.parameters.require("id"))
        return .noContent
    }

    @Sendable func followers(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<UserView>
    > {
        JSONResponse(
            try await follows.people(
                of: try context.parameters.require("id"), followers: true, viewerID: context.viewer.user?.id,
                page: try PageRequest(request)))
    }

    @Sendable func following(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<UserView>
    > {
        JSONResponse(
            try await follows.people(
                of: try context.parameters.require("id"), followers: false, viewerID: context.viewer.user?.id,
                page: try PageRequest(request)))
    }

    @Sendable func feed(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        RenderedCommentPage
    > {
        let user = try context.requireUser()
        var page = try await follows.followingFeed(userID: user.id, page: try PageRequest(request))
        page.page = try await likes.mark(page.page, viewerID: user.id)
        return JSONResponse(page)
    }
}
