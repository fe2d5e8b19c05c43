/// Lists each sorted by (key, id) descending, merged in that order as the statements order them: ties by id, greater
/// first, in bytes (the cluster's collation is C.UTF-8). The feed's category lists and 猜你喜欢's best stores merge
/// this way.
package enum DescendingMerge {
    /// The first `count` positions (list, index) of the merge of lists with `counts` entries.
    static func merge<Key: Comparable>(
        counts: [Int], count: Int, key: (_ list: Int, _ index: Int) -> Key, id: (_ list: Int, _ index: Int) -> String
    ) -> [(list: Int, index: Int)] {
        var heads = [Int](repeating: 0, count: counts.count)
        var merged: [(list: Int, index: Int)] = []
        while merged.count < count {
            var best: Int? = nil
            for list in counts.indices where heads[list] < counts[list] {
                guard let current = best else {
                    best = list
                    continue
                }
                let (a, b) = (key(list, heads[list]), key(current, heads[current]))
                if a > b
                    || (a == b
                        && id(current, heads[current]).utf8.lexicographicallyPrecedes(id(list, heads[list]).utf8))
                {
                    best = list
                }
            }
            guard let list = best else { break }
            merged.append((list, heads[list]))
            heads[list] += 1
        }
        return merged
    }
}
