/// Near-duplicate text across accounts (docs/TRUST.md, `copied_text`). A review's shingles are its adjacent
/// character pairs after dropping spaces and punctuation and folding case: Chinese has no spaces, and pg_trgm
/// ignores characters its locale does not call letters. Similarity is Jaccard's; candidates are found by
/// MinHash bands (equal band, likely similar), which the database can index as plain integers.
package struct TextShingles: Sendable, Equatable {
    package let pairs: Set<UInt64>

    package init(_ text: String) {
        let kept = text.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            .flatMap { $0.properties.lowercaseMapping.unicodeScalars }
        var pairs = Set<UInt64>()
        for (a, b) in zip(kept, kept.dropFirst()) { pairs.insert(UInt64(a.value) << 32 | UInt64(b.value)) }
        if pairs.isEmpty, let only = kept.first { pairs.insert(UInt64(only.value) << 32) }
        self.pairs = pairs
    }

    /// Shared pairs over all pairs: 1 for the same text, near 0 for unrelated ones.
    package func similarity(to other: TextShingles) -> Double {
        let union = pairs.union(other.pairs).count
        return union == 0 ? 0 : Double(pairs.intersection(other.pairs).count) / Double(union)
    }

    /// `bands` MinHash bands of `rows` each: two texts of similarity s share at least one band with probability
    /// 1 − (1 − s^rows)^bands (0.98 at s = 0.7 with 8 × 3; 0.10 at s = 0.2).
    package func bands(_ bands: Int = 8, rows: Int = 3) -> [Int64] {
        guard !pairs.isEmpty else { return [] }
        return (0..<bands).map { band in
            var combined: UInt64 = 0xcbf2_9ce4_8422_2325
            for row in 0..<rows {
                let seed = UInt64(band * rows + row + 1)
                let lowest = pairs.map { Self.mix($0 ^ seed &* 0x9e37_79b9_7f4a_7c15) }.min()!
                combined = Self.mix(combined ^ lowest)
            }
            return Int64(bitPattern: combined)
        }
    }

    /// SplitMix64's finalizer: a fixed, well-spread hash (Swift's `Hasher` is seeded per process).
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
