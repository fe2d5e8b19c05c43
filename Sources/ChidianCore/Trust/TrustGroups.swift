/// Accounts linked among a set of reviews (union–find over authors): by a shared origin hash, by one copying
/// another's text, or by reviewing two or more of the same stores. A ring shows as one group.
struct TrustGroups {
    private var parent: [String: String] = [:]
    private var originAuthors: [Int64: Set<String>] = [:]

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
        var storesOf: [String: Set<String>] = [:]
        for review in reviews { storesOf[review.authorID, default: []].insert(review.storeID) }
        let authors = storesOf.keys.sorted()
        for (i, a) in authors.enumerated() {
            for b in authors[(i + 1)...] where storesOf[a]!.intersection(storesOf[b]!).count >= 2 { union(a, b) }
        }
    }

    /// The authors in `author`'s group, itself included.
    func members(of author: String) -> Set<String> {
        let root = find(author)
        return Set(parent.keys.filter { find($0) == root })
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
