import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The contract's "Reviews and notices" routes, plus the per-user comment lists.
struct CommentsController {
    let comments: CommentRepository
    let likes: CommentLikes
    let replies: CommentReplies
    /// Opening a review counts as a click for the feed's recommender.
    let interests: InterestRepository
    /// Likes and one's own reviews teach the recommender too.
    let signals: InterestSignals
    let clock: @Sendable () -> Date

    init(
        comments: CommentRepository, likes: CommentLikes, replies: CommentReplies, interests: InterestRepository,
        clock: @escaping @Sendable () -> Date
    ) {
        self.comments = comments
        self.likes = likes
        self.replies = replies
        self.interests = interests
        signals = InterestSignals(interests: interests)
        self.clock = clock
    }

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

    @Sendable func reply(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CommentView> {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        var request = request
        let body = try CommentReplies.validBody(try await request.decodeJSON(ReplyBody.self).body)
        let view = try await replies.put(commentID: id, user: user, body: body)
        return JSONResponse(try await likes.mark(view, viewerID: user.id))
    }

    @Sendable func deleteReply(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await replies.delete(commentID: try context.parameters.require("id"), user: context.requireUser())
        return .noContent
    }

    // MARK: Likes

    @Sendable func like(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await setLike(true, commentID: try context.parameters.require("id"), viewer: context.viewer)
        return .noContent
    }

    @Sendable func unlike(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await setLike(false, commentID: try context.parameters.require("id"), viewer: context.viewer)
        return .noContent
    }

    /// Likes or unlikes for the API and the web client alike; the recommender hears of real changes only.
    func setLike(_ on: Bool, commentID: String, viewer: Viewer) async throws {
        guard let user = viewer.user else { throw Problem.loginRequired }
        if try await likes.set(on, commentID: commentID, userID: user.id) {
            await signals.record(on ? .liked : .unliked, viewer: viewer, commentID: commentID, at: clock())
        }
    }

    // MARK: Lists

    @Sendable func storeComments(_ request: Request, context: AppRequestContext) async throws -> CacheableJSON {
        let storeID = try context.parameters.require("id")
        let query = request.uri.queryParameters
        let kind = try query["kind"].map { raw in
            guard let kind = CommentKind(rawValue: String(raw)) else {
                throw Problem.badRequest("invalid_kind", "kind must be \"review\" or \"notice\".")
            }
            return kind
        }
        let sort =
            try query["sort"].map { raw in
                guard let sort = CommentSort(rawValue: String(raw)) else {
                    throw Problem.badRequest("invalid_sort", "sort must be \"newest\", \"rating\" or \"helpful\".")
                }
                return sort
            } ?? .newest
        let page = try await comments.storePage(
            storeID: storeID, kind: kind, sort: sort, page: try PageRequest(request))
        guard let viewer = context.viewer.user else {
            return CacheableJSON(body: ByteBuffer(bytes: page.json), etag: page.etag, shared: true)
        }
        let liked = try await likes.likedIDs(page.ids, by: viewer.id)
        if liked.isEmpty { return CacheableJSON(body: ByteBuffer(bytes: page.json), etag: page.etag, shared: false) }
        let marked = page.marking(liked)
        return CacheableJSON(body: ByteBuffer(bytes: marked), etag: ContentTag.of(marked), shared: false)
    }

    @Sendable func userComments(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<CommentView>
    > {
        let userID = try context.parameters.require("id")
        let page = try PageRequest(request)
        let found = try await comments.userComments(userID: userID, page: page)
        if found.items.isEmpty, try await !comments.userExists(id: userID) {
            throw AccountError.userNotFound("No user \(userID.prefix(64)).")
        }
        return JSONResponse(try await likes.mark(found, viewerID: context.viewer.user?.id))
    }

    @Sendable func myComments(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        Page<CommentView>
    > {
        let user = try context.requireUser()
        let found = try await comments.userComments(userID: user.id, page: try PageRequest(request))
        return JSONResponse(try await likes.mark(found, viewerID: user.id))
    }

    // MARK: One comment

    struct CreateBody: Decodable {
        /// Kept raw so a string or a fraction is `invalid_rating`, not `invalid_body`.
        var rating: JSONValue?
        var body: String?
        var imageIds: [String]?
        var scores: JSONValue?
        var pricePerPerson: JSONValue?
    }

    /// Users write reviews; managers write notices on their own stores; admins write nothing.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CommentView> {
        let user = try context.requireUser()
        let storeID = try context.parameters.require("id")
        let kind = try await writableKind(storeID: storeID, user: user)
        var request = request
        let draft = try Self.draft(try await request.decodeJSON(CreateBody.self), kind: kind)
        let view = try await post(storeID: storeID, user: user, kind: kind, draft: draft)
        var headers = Versioning.etag(view.version)
        headers[.location] = "/v1/comments/\(view.id)"
        return JSONResponse(view, status: .created, headers: headers)
    }

    /// What `user` may write on `storeID`: a review, or a notice on a store of their own; admins nothing.
    func writableKind(storeID: String, user: AuthUser) async throws -> CommentKind {
        guard user.role != .admin else {
            throw CommentError.adminCannotWrite
        }
        guard let managerID = try await comments.liveStoreManager(storeID: storeID) else {
            throw StoreError.notFound(id: storeID)
        }
        let kind: CommentKind = user.role == .manager ? .notice : .review
        if kind == .notice, managerID != user.id {
            throw StoreError.notOwner("Managers post notices only on their own stores.")
        }
        return kind
    }

    /// A comment's fields, checked for its kind.
    struct Draft: Sendable {
        var rating: Int?
        var body: String
        var imageIDs: [String]
        var scores: CommentScores?
        var pricePerPerson: Int?
    }

    static func draft(_ body: CreateBody, kind: CommentKind) throws -> Draft {
        let text = try CommentRules.validBody(body.body)
        // A rating sent with a notice is ignored.
        let rating = kind == .review ? try CommentRules.validRating(body.rating) : nil
        let imageIDs = try CommentRules.validImageIDs(body.imageIds ?? [])
        let scores = try body.scores.flatMap { try reviewOnly(CommentRules.validScores($0), kind, .invalidScores) }
        let price = try body.pricePerPerson.flatMap {
            try reviewOnly(CommentRules.validPrice($0), kind, .invalidPrice)
        }
        return Draft(rating: rating, body: text, imageIDs: imageIDs, scores: scores, pricePerPerson: price)
    }

    func post(storeID: String, user: AuthUser, kind: CommentKind, draft: Draft) async throws -> CommentView {
        let view = try await comments.create(
            .init(
                storeID: storeID, authorID: user.id, kind: kind, rating: draft.rating, body: draft.body,
                imageIDs: draft.imageIDs, scores: draft.scores, pricePerPerson: draft.pricePerPerson))
        if kind == .review, let rating = draft.rating {
            await signals.record(.reviewed(rating: rating), viewer: .user(user), storeID: storeID, at: clock())
        }
        return view
    }

    /// `?track=false` is accepted; click tracking is added by the feed.
    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CommentView> {
        let view = try await open(
            id: try context.parameters.require("id"), viewer: context.viewer,
            track: request.uri.queryParameters["track"] != "false")
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// A comment as its viewer sees it; opening a review counts as a click unless `track` is false.
    func open(id: String, viewer: Viewer, track: Bool) async throws -> CommentView {
        guard let found = try await comments.view(id: id) else { throw CommentError.notFound(id: id) }
        let view = try await likes.mark(found, viewerID: viewer.user?.id)
        if view.kind == .review, track, let key = viewer.interestKey {
            let now = clock()
            try await interests.recordOpen(viewer: key, commentID: view.id, at: now)
            await signals.openedReview(viewer: viewer, storeID: view.storeId, at: now)
        }
        return view
    }

    /// A value a notice may not carry: refused when present (null is fine).
    static func reviewOnly<T>(_ value: T?, _ kind: CommentKind, _ error: CommentError) throws -> T? {
        guard kind == .review || value == nil else { throw error }
        return value
    }

    struct PatchBody: Decodable {
        var rating: JSONValue?
        var body: String?
        var imageIds: [String]?
        /// nil when absent; `.null` when sent as null (clears).
        var scores: JSONValue?
        var pricePerPerson: JSONValue?

        enum CodingKeys: String, CodingKey { case rating, body, imageIds, scores, pricePerPerson }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rating = try container.decodeIfPresent(JSONValue.self, forKey: .rating)
            body = try container.decodeIfPresent(String.self, forKey: .body)
            imageIds = try container.decodeIfPresent([String].self, forKey: .imageIds)
            scores = container.contains(.scores) ? try container.decode(JSONValue.self, forKey: .scores) : nil
            pricePerPerson =
                container.contains(.pricePerPerson)
                ? try container.decode(JSONValue.self, forKey: .pricePerPerson) : nil
        }
    }

    /// Only the author edits, admins included in "everyone else".
    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<CommentView> {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        guard let target = try await comments.target(id: id) else { throw CommentError.notFound(id: id) }
        guard target.authorID == user.id else {
            throw CommentError.notAuthor("Only the author may edit this comment.")
        }
        let ifMatch = try Versioning.ifMatch(request)
        var request = request
        let body = try await request.decodeJSON(PatchBody.self)
        let patch = CommentRepository.Patch(
            rating: target.kind == .review ? try body.rating.map { try CommentRules.validRating($0) } : nil,
            body: try body.body.map { try CommentRules.validBody($0) },
            imageIDs: try body.imageIds.map { try CommentRules.validImageIDs($0) },
            scores: try body.scores.map {
                try Self.reviewOnly(CommentRules.validScores($0), target.kind, .invalidScores)
            },
            pricePerPerson: try body.pricePerPerson.map {
                try Self.reviewOnly(CommentRules.validPrice($0), target.kind, .invalidPrice)
            })
        let view = try await comments.update(id: id, authorID: user.id, patch: patch, ifMatch: ifMatch)
        // An author cannot like their own review: `liked` is false here.
        return JSONResponse(view, headers: Versioning.etag(view.version))
    }

    /// The author or an admin; `If-Match` is honoured here too.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        let user = try context.requireUser()
        let id = try context.parameters.require("id")
        guard let target = try await comments.target(id: id) else { throw CommentError.notFound(id: id) }
        guard target.authorID == user.id || user.role == .admin else {
            throw CommentError.notAuthor("Only the author or an admin may delete this comment.")
        }
        try await comments.delete(id: id, ifMatch: try Versioning.ifMatch(request))
        return .noContent
    }
}
