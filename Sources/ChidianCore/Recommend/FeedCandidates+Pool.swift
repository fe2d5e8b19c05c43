extension FeedCandidates {
    /// Candidates by category, each category's best first by cold start's worth: what a mixed page's places take in
    /// turn, and the heads cold start ranks. Indices into the reviews, kept as one array of runs, so a page makes a
    /// lookup by category for each run and each place rather than for each review, sorts each category's few
    /// reviews rather than all of them, and keeps no array per category.
    struct Pool {
        private let reviews: [Review]
        private let worths: [Double]
        private var slots: [String: Int] = [:]
        /// Per category: where its run starts in `order` (moving past what `next` took), and where it ends.
        private var next: [Int] = []
        private var ends: [Int] = []
        private var order: [Int]

        init(_ reviews: [Review], categoryWeights: [String: Double] = [:], radius: Double?) {
            self.reviews = reviews
            worths = FeedPlanner.worths(reviews, categoryWeights: categoryWeights, radius: radius)
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
            for index in reviews.indices {
                order[fill[slotOf[index]]] = index
                fill[slotOf[index]] += 1
            }
            // Sorting is stable: each run ends in the order a sort of every review would give its category. The
            // comparison holds the worths, not `self`, whose `order` it would otherwise copy at every run.
            let before = Self.ranksBefore(worths, reviews)
            for slot in counts.indices { order[next[slot]..<ends[slot]].sort(by: before) }
        }

        /// Whether review `a` ranks before `b`: the greater worth, then the greater id.
        static func ranksBefore(_ worths: [Double], _ reviews: [Review]) -> (Int, Int) -> Bool {
            { a, b in worths[a] != worths[b] ? worths[a] > worths[b] : reviews[a].id > reviews[b].id }
        }

        var ranksBefore: (Int, Int) -> Bool { Self.ranksBefore(worths, reviews) }

        /// Every review, most worthwhile first.
        func ranked() -> [Int] { reviews.indices.sorted(by: ranksBefore) }

        /// The best `count` of each category (not in rank order across categories).
        func heads(_ count: Int) -> [Int] {
            next.indices.flatMap { order[next[$0]..<min(ends[$0], next[$0] + count)] }
        }

        /// The index of `category`'s best review not yet taken, taking it; nil when none is left.
        mutating func next(of category: String) -> Int? {
            guard let slot = slots[category], next[slot] < ends[slot] else { return nil }
            defer { next[slot] += 1 }
            return order[next[slot]]
        }
    }
}
