import Foundation

extension FeedRepository {
    /// The rows `FeedStatements.Page` gives for a walk from the start, composed from the cached lists (issue #45):
    /// the clicked categories' lists in order, then the other categories' lists merged newest first (all of them
    /// when none was clicked; every review has a category), cut at `limit` rows; each row's view from its own
    /// entry. Nil, for the statement to answer, while the cache is not live or when a view the lists name is gone
    /// (a write the lists have not heard of yet).
    func composedRows(
        clicked: [String], limit: Int, viewerID: String?, pinned: [String], lists: FeedLists
    ) async throws -> (rows: [FeedStatements.Row], rendered: [String: [UInt8]])? {
        struct Walked {
            var segment: Int
            var id: String
            var key: String
        }
        var walked: [Walked] = []
        // A clicked category's list is read when the walk reaches it: a first page rarely leaves the first.
        for (segment, category) in clicked.enumerated() where walked.count < limit {
            guard let list = try await lists.lists([category])?.first else { return nil }
            for index in list.ids.indices.prefix(limit - walked.count) {
                walked.append(Walked(segment: segment, id: list.ids[index], key: list.keys[index]))
            }
        }
        if walked.count < limit {
            guard let everyone = try await lists.everyone() else { return nil }
            let merged: [(list: Int, index: Int)]
            var rest = everyone.lists
            if clicked.isEmpty {
                merged = Array(everyone.walk.prefix(limit))
            } else {
                let clickedSet = Set(clicked)
                rest = zip(everyone.categories, everyone.lists).filter { !clickedSet.contains($0.0) }.map(\.1)
                merged = DescendingMerge.merge(
                    counts: rest.map(\.ids.count), count: limit - walked.count, key: { rest[$0].createdAt[$1] },
                    id: { rest[$0].ids[$1] })
            }
            for (list, index) in merged {
                walked.append(Walked(segment: clicked.count, id: rest[list].ids[index], key: rest[list].keys[index]))
            }
        }
        let more = walked.count >= limit
        let page = walked.prefix(limit - 1)
        let ids = page.map(\.id) + pinned
        guard let views = try await lists.views(ids) else { return nil }
        var liked: Set<String> = []
        if let viewerID {
            liked = try await CommentLikes(database: database, cache: lists.cache).likedIDs(ids, by: viewerID)
        }
        var rows: [FeedStatements.Row] = []
        var rendered: [String: [UInt8]] = [:]
        for (id, entry) in views { rendered[id] = entry.json }
        for (index, step) in page.enumerated() {
            guard var view = views[step.id]?.value else { return nil }
            view.liked = liked.contains(step.id)
            rows.append(
                FeedStatements.Row(
                    item: .init(
                        position: index + 1, segment: step.segment, createdAtKey: step.key, view: view, shown: true),
                    more: more, names: nil))
        }
        for (index, id) in pinned.enumerated() {
            guard var view = views[id]?.value else { return nil }
            view.liked = liked.contains(id)
            rows.append(
                FeedStatements.Row(
                    item: .init(position: -(index + 1), segment: -1, createdAtKey: "", view: view, shown: true),
                    more: more, names: nil))
        }
        return (rows.isEmpty ? [FeedStatements.Row(item: nil, more: more, names: nil)] : rows, rendered)
    }
}
