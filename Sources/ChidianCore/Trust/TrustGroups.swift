import Foundation

/// Accounts linked among a set of reviews (union–find over authors): by a shared origin hash, by one copying
/// another's text, or by reviewing two or more of the same stores within days of each other. A ring shows as one
/// group.
struct TrustGroups {
    private var parent: [String: String] = [:]
    private var originAuthors: [Int64: Set<String>] = [:]
    /// How close in time two accounts' reviews of one store are "together".
    static let together: TimeInterval = 3 * 86400

    init(_ reviews: [ReviewEvidence]) {
        for review in reviews { parent[review.authorID] = review.authorID }
        for review in reviews {
            for origin in review.origins { originAuthors[origin, default: []].insert(review.authorID) }
        }
        for authors in originAuthors.values where authors.count > 1 {
            let first = authors.first!
            for other in authors { union(first, other) }
        }
        for review in reviews where review.copiedSimilarity >= 0.6 {
            if let from = review.copiedFrom, parent[from] != nil { union(review.authorID, from) }
        }
        // Reviewing the same stores counts only together (within `together` of each other, on two stores or
        // more): people with the same taste review the same places, but not in step.
        var storesOf: [String: [String: [Date]]] = [:]
        for review in reviews {
            storesOf[review.authorID, default: [:]][review.storeID, default: []].append(review.postedAt)
        }
        let authors = storesOf.keys.sorted()
        for (i, a) in authors.enumerated() {
            let mine = storesOf[a]!
            for b in authors[(i + 1)...] {
                var shared = 0
                for (store, theirs) in storesOf[b]! {
                    guard let times = mine[store] else { continue }
                    if times.contains(where: { t in theirs.contains { abs($0.timeIntervalSince(t)) <= Self.together } })
                    {
                        shared += 1
                    }
                }
                if shared >= 2 { union(a, b) }
            }
        }
    }

    /// Every author's group, itself included.
    func membership() -> [String: Set<String>] {
        var byRoot: [String: Set<String>] = [:]
        for author in parent.keys { byRoot[find(author), default: []].insert(author) }
        var result: [String: Set<String>] = [:]
        for members in byRoot.values { for author in members { result[author] = members } }
        return result
    }

    /// How many other authors share an origin with `author`.
    func sharedOrigins(of author: String) -> Int {
        var others = Set<String>()
        for authors in originAuthors.values where authors.contains(author) { others.formUnion(authors) }
        others.remove(author)
        return others.count
    }

    private func find(_ author: String) -> String {
        var node = author
        while let up = parent[node], up != node { node = up }
        return node
    }

    private mutating func union(_ a: String, _ b: String) {
        let (ra, rb) = (find(a), find(b))
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}
