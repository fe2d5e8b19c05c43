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
        guard let segments = try await lists.lists(clicked) else { return nil }
        struct Walked {
            var segment: Int
            var id: String
            var key: String
        }
        var walked: [Walked] = []
        for (segment, list) in segments.enumerated() where walked.count < limit {
            for index in list.ids.indices.prefix(limit - walked.count) {
                walked.append(Walked(segment: segment, id: list.ids[index], key: list.keys[index]))
            }
        }
        if walked.count < limit {
            guard let all = try await lists.categoryIDs() else { return nil }
            let clickedSet = Set(clicked)
            guard let rest = try await lists.lists(all.filter { !clickedSet.contains($0) }) else { return nil }
            var heads = [Int](repeating: 0, count: rest.count)
            while walked.count < limit {
                // The newest head; ties by id, greater first, in bytes (the cluster's collation is C.UTF-8).
                var best: Int? = nil
                for (index, list) in rest.enumerated() where heads[index] < list.ids.count {
                    guard let current = best else {
                        best = index
                        continue
                    }
                    let a = (list.createdAt[heads[index]], list.ids[heads[index]])
                    let b = (rest[current].createdAt[heads[current]], rest[current].ids[heads[current]])
                    if a.0 > b.0 || (a.0 == b.0 && b.1.utf8.lexicographicallyPrecedes(a.1.utf8)) { best = index }
                }
                guard let index = best else { break }
                walked.append(
                    Walked(
                        segment: clicked.count, id: rest[index].ids[heads[index]], key: rest[index].keys[heads[index]]))
                heads[index] += 1
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
