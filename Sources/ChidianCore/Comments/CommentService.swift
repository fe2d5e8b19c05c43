import Foundation

/// The rules of writing reviews and notices, liking and opening them: one place for the API and the web.
package struct CommentService: Sendable {
    package let comments: CommentRepository
    package let likes: CommentLikes
    package let replies: CommentReplies
    /// Opening a review counts as a click for the feed's recommender.
    /// Likes and one's own reviews teach the recommender too.
    package let signals: InterestSignals
    package let clock: @Sendable () -> Date

    package init(
        comments: CommentRepository, likes: CommentLikes, replies: CommentReplies,
        signals: InterestSignals, clock: @escaping @Sendable () -> Date
    ) {
        self.comments = comments
        self.likes = likes
        self.replies = replies
        self.signals = signals
        self.clock = clock
    }

    /// Likes or unlikes for the API and the web client alike; the recommender hears of real changes only.
    package func setLike(_ on: Bool, commentID: String, viewer: Viewer) async throws {
        guard let user = viewer.user else { throw Problem.loginRequired }
        if try await likes.set(on, commentID: commentID, userID: user.id) {
            await signals.record(on ? .liked : .unliked, viewer: viewer, commentID: commentID, at: clock())
        }
    }

    /// A new comment's fields as sent, kept raw so a string or a fraction is `invalid_rating`, not `invalid_body`.
    package struct Fields: Decodable, Sendable {
        package var rating: JSONValue?
        package var body: String?
        package var imageIds: [String]?
        package var scores: JSONValue?
        package var pricePerPerson: JSONValue?

        package init(
            rating: JSONValue? = nil, body: String? = nil, imageIds: [String]? = nil, scores: JSONValue? = nil,
            pricePerPerson: JSONValue? = nil
        ) {
            self.rating = rating
            self.body = body
            self.imageIds = imageIds
            self.scores = scores
            self.pricePerPerson = pricePerPerson
        }
    }

    /// What `user` may write on `storeID`: a review, or a notice on a store of their own; admins nothing.
    package func writableKind(storeID: String, user: AuthUser) async throws -> CommentKind {
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
    package struct Draft: Sendable {
        package var rating: Int?
        package var body: String
        package var imageIDs: [String]
        package var scores: CommentScores?
        package var pricePerPerson: Int?
    }

    package static func draft(_ fields: Fields, kind: CommentKind) throws -> Draft {
        let text = try CommentRules.validBody(fields.body)
        // A rating sent with a notice is ignored.
        let rating = kind == .review ? try CommentRules.validRating(fields.rating) : nil
        let imageIDs = try CommentRules.validImageIDs(fields.imageIds ?? [])
        let scores = try fields.scores.flatMap { try reviewOnly(CommentRules.validScores($0), kind, .invalidScores) }
        let price = try fields.pricePerPerson.flatMap {
            try reviewOnly(CommentRules.validPrice($0), kind, .invalidPrice)
        }
        return Draft(rating: rating, body: text, imageIDs: imageIDs, scores: scores, pricePerPerson: price)
    }

    /// Posts a comment; a review's `origin` is remembered (hashed) for the trust judge, which judges it beside
    /// the request.
    package func post(
        storeID: String, user: AuthUser, kind: CommentKind, draft: Draft, origin: TrustOrigin? = nil
    ) async throws -> CommentView {
        let view = try await comments.create(
            .init(
                storeID: storeID, authorID: user.id, kind: kind, rating: draft.rating, body: draft.body,
                imageIDs: draft.imageIDs, scores: draft.scores, pricePerPerson: draft.pricePerPerson, origin: origin))
        if kind == .review, let rating = draft.rating {
            await signals.record(.reviewed(rating: rating), viewer: .user(user), storeID: storeID, at: clock())
        }
        return view
    }

    /// A comment as its viewer sees it; opening a review counts as a click unless `track` is false.
    package func open(id: String, viewer: Viewer, track: Bool) async throws -> CommentView {
        guard let view = try await comments.view(id: id, viewerID: viewer.user?.id) else {
            throw CommentError.notFound(id: id)
        }
        if view.kind == .review, track {
            await signals.openedReview(viewer: viewer, commentID: view.id, storeID: view.storeId, at: clock())
        }
        return view
    }

    /// A value a notice may not carry: refused when present (null is fine).
    static func reviewOnly<T>(_ value: T?, _ kind: CommentKind, _ error: CommentError) throws -> T? {
        guard kind == .review || value == nil else { throw error }
        return value
    }

    /// An edit's fields as sent: nil when absent; `scores` and `pricePerPerson` are `.null` when sent as null
    /// (clears).
    package struct Patch: Decodable, Sendable {
        package var rating: JSONValue?
        package var body: String?
        package var imageIds: [String]?
        package var scores: JSONValue?
        package var pricePerPerson: JSONValue?

        package enum CodingKeys: String, CodingKey { case rating, body, imageIds, scores, pricePerPerson }

        package init(from decoder: any Decoder) throws {
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

    /// The author only (admins are "everyone else"); 404 before 403.
    package func editable(id: String, user: AuthUser) async throws -> CommentRepository.Target {
        guard let target = try await comments.target(id: id) else { throw CommentError.notFound(id: id) }
        guard target.authorID == user.id else {
            throw CommentError.notAuthor("Only the author may edit this comment.")
        }
        return target
    }

    /// Applies `patch` checked for the comment's kind; `ifMatch` is the version the author last saw.
    package func edit(_ target: CommentRepository.Target, id: String, user: AuthUser, patch body: Patch, ifMatch: Int?)
        async throws -> CommentView
    {
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
        return try await comments.update(id: id, authorID: user.id, patch: patch, ifMatch: ifMatch)
    }

    /// The author or an admin deletes; `ifMatch` is honoured here too.
    package func delete(id: String, user: AuthUser, ifMatch: Int?) async throws {
        guard let target = try await comments.target(id: id) else { throw CommentError.notFound(id: id) }
        guard target.authorID == user.id || user.role == .admin else {
            throw CommentError.notAuthor("Only the author or an admin may delete this comment.")
        }
        try await comments.delete(id: id, ifMatch: ifMatch)
    }
}
