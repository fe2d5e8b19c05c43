import ChidianCore
import Foundation

/// The two scenarios of issue #46, on new viewers whose feed is their only way in (no opens found elsewhere):
/// a first session with one stray open, and twelve sessions `sessionHours` apart with 40 % of viewers changing
/// their favourite halfway. Everyone's counts start as a site's that has run a while (1,000 showings a category at
/// 7.5 % click-through).
extension RecommenderEval {
    public struct FirstSession: Sendable, Equatable {
        /// Distinct categories of the next first page after one open of the first page's tenth review, on average.
        public var categories: Double
        /// Share of viewers whose next first page keeps at least 5 categories.
        public var keepsFive: Double
        /// Share of viewers whose next first page is led by the stray category.
        public var strayLeads: Double
    }

    public struct Sessions: Sendable, Equatable {
        /// Clicks per session.
        public var clicks: Double
        /// Share of viewers whose twelfth page is led by a category they barely like.
        public var barelyLiked: Double
        /// Of the viewers whose favourite changed, the share whose new favourite led a page within 6 sessions.
        public var followed: Double
    }

    func warm(_ run: inout Run) {
        run.global = Global(
            shown: Array(repeating: 1000, count: categories), clicked: Array(repeating: 75, count: categories))
    }

    /// A new viewer's first page (cold start), one open of its tenth review a minute later, the next first page
    /// ten minutes after.
    public func firstSession(_ policy: Policy) -> FirstSession {
        var run = Run(eval: self, policy: policy, model: .everyPlace, stream: 11)
        warm(&run)
        var (categories, five, leads) = (0, 0, 0)
        for viewer in 0..<viewers {
            let first = run.page(viewer, at: 0)
            let stray = first[first.count - 1]
            run.age(viewer, hours: 1.0 / 60)
            run.read(viewer, first, clicked: [first.count - 1])
            run.opened(viewer, stray, at: 1.0 / 60)
            run.age(viewer, hours: 10.0 / 60)
            let next = run.page(viewer, at: 11.0 / 60)
            let distinct = Set(next).count
            categories += distinct
            if distinct >= 5 { five += 1 }
            if Self.lead(next) == stray { leads += 1 }
        }
        let n = Double(max(viewers, 1))
        return FirstSession(
            categories: Double(categories) / n, keepsFive: Double(five) / n, strayLeads: Double(leads) / n)
    }

    /// Twelve sessions `sessionHours` apart; before the seventh, 40 % of viewers change their favourite.
    public func sessions(_ policy: Policy, model: ClickModel, count: Int = 12) -> Sessions {
        var run = Run(eval: self, policy: policy, model: model, stream: 12)
        warm(&run)
        var favorites = (0..<viewers).map { _ in run.world.below(categories) }
        var seconds = favorites.map { ($0 + 1 + run.world.below(categories - 1)) % categories }
        let changes = (0..<viewers).map { _ in run.world.chance(0.4) }
        var followed = Array(repeating: false, count: viewers)
        var (clicks, barely) = (0, 0)
        let half = count / 2
        for session in 0..<count {
            let hour = Double(session) * sessionHours
            for viewer in 0..<viewers {
                if session == half, changes[viewer] {
                    seconds[viewer] = favorites[viewer]
                    favorites[viewer] = (favorites[viewer] + 1 + run.world.below(categories - 1)) % categories
                }
                let likes = preferences(favorite: favorites[viewer], second: seconds[viewer])
                if session > 0 { run.age(viewer, hours: sessionHours) }
                let places = run.page(viewer, at: hour)
                let lead = Self.lead(places)
                if session >= half, changes[viewer], lead == favorites[viewer] { followed[viewer] = true }
                if session == count - 1, let lead, likes[lead] < 0.1 { barely += 1 }
                let read = model.read(places, likes: likes, using: &run.clicksRNG)
                run.read(viewer, places, clicked: read)
                for place in read {
                    clicks += 1
                    run.opened(viewer, places[place], at: hour)
                }
            }
        }
        let changed = changes.filter { $0 }.count
        return Sessions(
            clicks: Double(clicks) / Double(max(viewers * count, 1)),
            barelyLiked: Double(barely) / Double(max(viewers, 1)),
            followed: Double(zip(changes, followed).filter { $0 && $1 }.count) / Double(max(changed, 1)))
    }
}
