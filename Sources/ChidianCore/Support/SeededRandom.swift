/// xoshiro256** seeded through SplitMix64: the same seed gives the same stream on every platform and Swift
/// version. The generator draws only through the helpers here (never the standard library's `random(in:)` or
/// `shuffled()`, whose algorithms are not promised to stay the same), so its output is a function of the seed.
package struct SeededRandom {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    package init(seed: UInt64) {
        var state = seed
        func splitMix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    /// An independent stream for one part of the output, so changing how one part draws leaves the others alone.
    package init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// 0..<n (n > 0), by the multiply-high method; the bias is below 2⁻⁴⁰ for any n used here.
    package mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// lower...upper.
    package mutating func between(_ lower: Int, _ upper: Int) -> Int {
        lower + below(upper - lower + 1)
    }

    /// A double in [0, 1).
    package mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability p.
    package mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    package mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// An index into 0..<n skewed to the front: `power` 1 is uniform, larger values favour small indices more.
    /// Plain multiplication rather than `pow`, whose last bit may differ between C libraries.
    package mutating func skewed(_ n: Int, power: Int) -> Int {
        let u = unit()
        var x = u
        for _ in 1..<max(power, 1) { x *= u }
        return min(n - 1, Int(Double(n) * x))
    }

    /// Fisher–Yates, in place.
    package mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, below(i + 1))
        }
    }
}

/// For the recommender's sampling (the bandit, the evaluation), which draws through the standard library's
/// `random(in:using:)`: its output then depends on the toolchain as well as the seed. Generated data keeps to the
/// helpers above.
extension SeededRandom: RandomNumberGenerator {
    /// A fast generator for one request's sampling, seeded from the system's: the bandit draws dozens of numbers a
    /// page, and the system generator is a syscall each (2 % of the feed's server CPU in a profile).
    package static func forRequest() -> SeededRandom {
        var system = SystemRandomNumberGenerator()
        return SeededRandom(seed: system.next())
    }
}
