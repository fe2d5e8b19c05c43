import Synchronization

/// One byte budget over a server's caches (issue #45): the sum of their caps. Each keeps its own cap, and the
/// borrower (the read cache, whose store cards near me and the pick walk) may grow past its own into what the
/// others leave unused, giving it back as they fill. At noon the read cache was full and evicting stores while the
/// search, image and places caches, sized for their own peaks, held a fraction of theirs.
public final class CacheBudget: Sendable {
    public let limit: Int
    private let held = Atomic<Int>(0)
    private let borrowerBox = Mutex<Weak>(Weak())

    private struct Weak: @unchecked Sendable {
        weak var cache: ReadCache?
    }

    public init(limit: Int) {
        self.limit = limit
    }

    /// What the caches hold together, as counted against their caps.
    package var total: Int { held.load(ordering: .relaxed) }

    func add(_ delta: Int) {
        if delta != 0 { held.add(delta, ordering: .relaxed) }
    }

    /// The cache that may borrow; held weakly (it holds the budget).
    package var borrower: ReadCache? {
        get { borrowerBox.withLock { $0.cache } }
        set { borrowerBox.withLock { $0.cache = newValue } }
    }

    /// A lender filled: the borrower gives back what takes the caches over the budget.
    func lenderGrew() {
        guard total > limit else { return }
        borrower?.shed()
    }
}
