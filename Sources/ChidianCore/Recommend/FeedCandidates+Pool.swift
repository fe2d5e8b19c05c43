extension FeedCandidates {
    /// Candidates by category, each category's best first (cold start's worth without the category's weight): what a
    /// mixed page's places take in turn. Indices into the reviews, kept as one array of runs, so a page makes a
    /// lookup by category for each run and each place rather than for each review, and no array per category.
    struct Pool {
        private var slots: [String: Int] = [:]
        /// Per category: where its run starts in `order` (moving past what was taken), and where it ends.
        private var next: [Int] = []
        private var ends: [Int] = []
        private var order: [Int]

        init(_ reviews: [Review], radius: Double?) {
            var counts: [Int] = []
            var slotOf = [Int](repeating: 0, count: reviews.count)
            var last: (category: String, slot: Int)? = nil
            for index in reviews.indices {
                let category = reviews[index].categoryID
                if last?.category != category {
                    let slot = slots[category] ?? counts.count
                    if slot == counts.count {
                        slots[category] = slot
                        counts.append(0)
                    }
                    last = (category, slot)
                }
                slotOf[index] = last?.slot ?? 0
                counts[slotOf[index]] += 1
            }
            next = [Int](repeating: 0, count: counts.count)
            for slot in counts.indices.dropFirst() { next[slot] = next[slot - 1] + counts[slot - 1] }
            ends = zip(next, counts).map { $0 + $1 }
            order = [Int](repeating: 0, count: reviews.count)
            var fill = next
            for index in FeedPlanner.ranked(reviews, categoryWeights: [:], radius: radius) {
                order[fill[slotOf[index]]] = index
                fill[slotOf[index]] += 1
            }
        }

        /// The index of `category`'s best review not yet taken, taking it; nil when none is left.
        mutating func next(of category: String) -> Int? {
            guard let slot = slots[category], next[slot] < ends[slot] else { return nil }
            defer { next[slot] += 1 }
            return order[next[slot]]
        }
    }
}
