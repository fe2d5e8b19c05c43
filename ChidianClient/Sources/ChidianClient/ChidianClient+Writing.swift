import Foundation
import OpenAPIRuntime

/// What a signed-in user does: photos, reviews (and their edits), likes, favorites.
extension ChidianClient {
    /// Uploads an image's bytes; its `id` goes into a review's or store's `imageIds`.
    public func uploadImage(_ data: Data, type: ImageType) async throws -> UploadedImage {
        let body = HTTPBody(data)
        let request: Operations.UploadImage.Input.Body =
            switch type {
            case .jpeg: .jpeg(body)
            case .png: .png(body)
            case .webp: .imageWebp(body)
            case .gif: .imageGif(body)
            }
        let output = try await api.uploadImage(body: request)
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        return try mirror(created.body.json)
    }

    /// An image's bytes, by id or by a path from `imageUrls` / `avatarUrl` (`/v1/images/{id}`). An app usually lets
    /// `AsyncImage` load the URL instead.
    public func image(_ idOrPath: String) async throws -> DownloadedImage {
        let id = idOrPath.split(separator: "/").last.map(String.init) ?? idOrPath
        let output = try await api.getImage(path: .init(id: id))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        let (body, type): (HTTPBody, ImageType) =
            switch ok.body {
            case .jpeg(let body): (body, .jpeg)
            case .png(let body): (body, .png)
            case .imageWebp(let body): (body, .webp)
            case .imageGif(let body): (body, .gif)
            }
        return DownloadedImage(data: try await Data(collecting: body, upTo: 32 << 20), type: type)
    }

    /// Writes a review (a user) of a store.
    public func postReview(
        store id: String, rating: Int, body: String, imageIds: [String] = [],
        scores: Comment.Scores? = nil, pricePerPerson: Int? = nil
    ) async throws -> Comment {
        try await createComment(
            store: id,
            .init(
                body: body, imageIds: imageIds.isEmpty ? nil : imageIds, pricePerPerson: pricePerPerson,
                rating: rating,
                scores: scores.map { .init(environment: $0.environment, service: $0.service, taste: $0.taste) }))
    }

    /// Writes a notice (the store's manager).
    public func postNotice(store id: String, body: String, imageIds: [String] = []) async throws -> Comment {
        try await createComment(store: id, .init(body: body, imageIds: imageIds.isEmpty ? nil : imageIds))
    }

    private func createComment(store id: String, _ request: Components.Schemas.CommentCreateRequest) async throws
        -> Comment
    {
        let output = try await api.createComment(path: .init(id: id), body: .json(request))
        guard case .created(let created) = output else { throw await ChidianError.from(output) }
        return try mirror(created.body.json)
    }

    /// Edits a comment as it was read: `If-Match` carries `comment.version`, so an edit based on a stale copy is
    /// refused with `.versionConflict` (read it again and retry). Nil fields stay unchanged.
    public func edit(
        _ comment: Comment, body: String? = nil, rating: Int? = nil, imageIds: [String]? = nil
    ) async throws -> Comment {
        let output = try await api.editComment(
            path: .init(id: comment.id), headers: .init(ifMatch: ifMatch(comment.version)),
            body: .json(.init(body: body, imageIds: imageIds, rating: rating)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// Deletes a comment as it was read (`If-Match`, as `edit`).
    public func delete(_ comment: Comment) async throws {
        let output = try await api.deleteComment(
            path: .init(id: comment.id), headers: .init(ifMatch: ifMatch(comment.version)))
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }

    /// Likes a review, or takes the like back.
    public func setLiked(_ liked: Bool, comment id: String) async throws {
        if liked {
            let output = try await api.likeComment(path: .init(id: id))
            guard case .noContent = output else { throw await ChidianError.from(output) }
        } else {
            let output = try await api.unlikeComment(path: .init(id: id))
            guard case .noContent = output else { throw await ChidianError.from(output) }
        }
    }

    /// Favorites a store (收藏), or not; both idempotent.
    public func setFavorite(_ favorite: Bool, store id: String) async throws {
        if favorite {
            let output = try await api.favoriteStore(path: .init(id: id))
            guard case .noContent = output else { throw await ChidianError.from(output) }
        } else {
            let output = try await api.unfavoriteStore(path: .init(id: id))
            guard case .noContent = output else { throw await ChidianError.from(output) }
        }
    }

    /// The user's favorite stores, most recently favorited first.
    public func favorites(pageSize: Int = 20) -> Paginated<Store> {
        Paginated { cursor in
            let output = try await self.api.listMyFavorites(query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// The signed-in user's own reviews and notices, newest first.
    public func myComments(pageSize: Int = 20) -> Paginated<Comment> {
        Paginated { cursor in
            let output = try await self.api.listMyComments(query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }
}
