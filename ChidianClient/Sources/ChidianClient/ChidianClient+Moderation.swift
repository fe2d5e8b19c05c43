/// The admins' moderation: the report queue, hiding, restoring or dismissing a comment, and the log.
extension ChidianClient {
    /// Hides, restores or dismisses (closes the reports of) a comment, with an optional note for the log.
    public func moderate(comment id: String, _ action: ModerationAction, note: String? = nil) async throws
        -> ModerationItem
    {
        guard let action = Components.Schemas.ModerationRequest.ActionPayload(rawValue: action.rawValue) else {
            preconditionFailure("ModerationAction lists the document's actions")
        }
        let output = try await api.moderateComment(
            path: .init(id: id), body: .json(.init(action: action, note: note)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// Reported comments with their reports: the open ones (to decide) or the closed ones.
    public func moderationQueue(status: ModerationItem.Status = .open, pageSize: Int = 20)
        -> Paginated<ModerationItem>
    {
        Paginated { cursor in
            let output = try await self.api.moderationQueue(
                query: .init(status: .init(rawValue: status.rawValue), limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// Every moderation decision, newest first.
    public func moderationLog(pageSize: Int = 20) -> Paginated<ModerationLogEntry> {
        Paginated { cursor in
            let output = try await self.api.moderationLog(query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// An admin's verdict on a review, which stands until an admin changes it; logged with the note.
    public func setRecommended(comment id: String, _ recommended: Bool, note: String? = nil) async throws -> Comment {
        let output = try await api.setCommentRecommended(
            path: .init(id: id), body: .json(.init(note: note, recommended: recommended)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// Suspicious and not recommended reviews, most suspicious first.
    public func trustQueue(pageSize: Int = 20) -> Paginated<TrustItem> {
        Paginated { cursor in
            let output = try await self.api.trustQueue(query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }
}
