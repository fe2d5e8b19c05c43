import Synchronization

extension WeeklyHours {
    /// Schedules already met, each kept once: stores repeat a few common ones, and every cached store card held its
    /// own copy (about 380 bytes for two ranges a day). Bounded: past `sharedLimit` distinct schedules, a new one is
    /// returned as it is.
    private static let met = Mutex<Set<WeeklyHours>>([])
    static let sharedLimit = 4_096

    /// This schedule, in storage shared with every equal one met before.
    package func shared() -> WeeklyHours {
        Self.met.withLock { met in
            if let index = met.firstIndex(of: self) { return met[index] }
            if met.count < Self.sharedLimit { met.insert(self) }
            return self
        }
    }
}
