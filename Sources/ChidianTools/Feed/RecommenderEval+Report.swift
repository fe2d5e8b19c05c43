import ChidianCore
import Foundation

/// How `chidian eval-recommender` chooses the defaults, and the table docs/RECOMMENDER.md keeps.
///
/// The rule, fixed before the second click model was run: under the first model (every place seen), among
/// half-lives of 1, 2, 3 and 7 days and 0–3 exploring places, take the highest CTR@10 under drift whose CTR with
/// fixed tastes is at least 0.98× the shipped policy's and whose stability is at least 0.9 (one stray open moves at
/// most one place in ten on average); then the signal weights' scale by the same rule. The second model (position
/// bias) only reports.
extension RecommenderEval {
    public static let halfLives: [Double] = [1, 2, 3, 7]
    public static let exploring = [0, 1, 2, 3]
    public static let scales: [Double] = [0, 0.5, 1, 2]
    static let fixedFloor = 0.98
    static let stabilityFloor = 0.9

    public struct Row: Sendable {
        public var policy: Policy
        public var fixed: Outcome
        public var drifting: Outcome
    }

    public func row(_ policy: Policy, _ model: ClickModel) -> Row {
        Row(
            policy: policy, fixed: simulate(policy, drift: false, model: model),
            drifting: simulate(policy, drift: true, model: model))
    }

    /// The best row by the rule, or nil when none passes.
    static func best(_ rows: [Row], shipped: Row) -> Row? {
        rows.filter {
            $0.fixed.ctr >= fixedFloor * shipped.fixed.ctr
                && min($0.fixed.stability, $0.drifting.stability) >= stabilityFloor
        }
        .max { ($0.drifting.ctr, $0.fixed.ctr) < ($1.drifting.ctr, $1.fixed.ctr) }
    }

    /// Every candidate under the first model, the choice, then the second model on newest, shipped and the choice.
    public func report() -> (choice: Policy, markdown: String) {
        let shipped = row(.shipped, .everyPlace)
        let newest = row(.newest, .everyPlace)
        let grid = Self.halfLives.flatMap { h in
            Self.exploring.map { row(.learning(halfLifeDays: h, explorePlaces: $0), .everyPlace) }
        }
        let chosenGrid = Self.best(grid, shipped: shipped)?.policy ?? .shipped
        let weighed = Self.scales.map {
            row(
                .learning(
                    halfLifeDays: chosenGrid.halfLifeDays ?? 7, explorePlaces: chosenGrid.explorePlaces, signalScale: $0
                ),
                .everyPlace)
        }
        let choice = Self.best(weighed, shipped: shipped)?.policy ?? chosenGrid
        var lines = ["### Click model 1: every place seen (chooses)", "", Self.header]
        for row in [newest, shipped] + grid {
            lines.append(Self.line(row, shipped: shipped, chosen: row.policy == chosenGrid))
        }
        lines += [
            "",
            "Signal weights at that half-life and exploring (×1: `InterestSignal.baseWeight`; the product multiplies "
                + "them by `InterestSignal.scale`):", "", Self.header,
        ]
        for row in weighed { lines.append(Self.line(row, shipped: shipped, chosen: row.policy == choice)) }
        let biased = [row(.newest, .positionBias), row(.shipped, .positionBias), row(choice, .positionBias)]
        lines += ["", "### Click model 2: position bias (reports only)", "", Self.header]
        for row in biased { lines.append(Self.line(row, shipped: biased[1], chosen: row.policy == choice)) }
        let hits = alsoViewedHitRate()
        lines += [
            "", "### Also viewed",
            "",
            "| list | hit rate (the next store opened is in the top 10) |", "|---|---|",
            "| also viewed (viewers in common within a day) | \(Self.f(hits.alsoViewed)) |",
            "| most opened stores of the same category | \(Self.f(hits.sameCategory)) |",
            "| most opened stores overall | \(Self.f(hits.popular)) |",
            "", "Chosen: **\(choice)**.",
        ]
        return (choice, lines.joined(separator: "\n"))
    }

    static let header = """
        | policy | CTR@10 fixed | ×shipped | CTR@10 drift | ×shipped | first-day CTR | surfaced in a week | diversity | stability |
        |---|---|---|---|---|---|---|---|---|
        """

    static func line(_ row: Row, shipped: Row, chosen: Bool) -> String {
        let name = chosen ? "**\(row.policy)**" : "\(row.policy)"
        return
            "| \(name) | \(f(row.fixed.ctr)) | \(f(row.fixed.ctr / shipped.fixed.ctr, 2)) | \(f(row.drifting.ctr)) | "
            + "\(f(row.drifting.ctr / shipped.drifting.ctr, 2)) | \(f(row.fixed.firstDayCTR)) | "
            + "\(f(row.drifting.surfaced, 2)) | \(f(row.fixed.diversity, 2)) | \(f(row.fixed.stability, 2)) |"
    }

    static func f(_ value: Double, _ digits: Int = 4) -> String { String(format: "%.\(digits)f", value) }

    /// Stores (20 a category, opened within their category by 1/rank popularity); each viewer opens three a day by
    /// preference. Pairs within a day count one viewer each, as `StoreVisits` keeps them. Over the last week, for
    /// each store a viewer opens after another that day: is it in the first store's top 10?
    public func alsoViewedHitRate() -> (alsoViewed: Double, sameCategory: Double, popular: Double) {
        let perCategory = 20
        let stores = categories * perCategory
        var world = SeededRandom(seed: seed, stream: 3)
        let popularity = (0..<perCategory).map { 1 / Double($0 + 1) }
        let favorites = (0..<viewers).map { _ in world.below(categories) }
        let seconds = favorites.map { ($0 + 1 + world.below(categories - 1)) % categories }
        var pairs = Set<Int>()  // viewer * stores² + a * stores + b, a < b
        var covisits = Array(repeating: [Int: Int](), count: stores)
        var opens = Array(repeating: 0, count: stores)
        var (hits, sameHits, popularHits, trials) = (0, 0, 0, 0)
        for day in 0..<days {
            let testing = day >= days - 7
            var sameTop: [[Int]] = []
            var popularTop: [Int] = []
            if testing {
                sameTop = (0..<categories).map { c in
                    (c * perCategory..<(c + 1) * perCategory).sorted { (opens[$0], -$0) > (opens[$1], -$1) }
                }
                popularTop = (0..<stores).sorted { (opens[$0], -$0) > (opens[$1], -$1) }
            }
            for viewer in 0..<viewers {
                let likes = preferences(favorite: favorites[viewer], second: seconds[viewer])
                var today: [Int] = []
                for _ in 0..<3 {
                    let category = Self.draw(likes, &world)
                    let store = category * perCategory + Self.draw(popularity, &world)
                    if testing, let previous = today.last, previous != store {
                        trials += 1
                        let also = covisits[previous].sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.prefix(10)
                        if also.contains(where: { $0.key == store }) { hits += 1 }
                        if sameTop[previous / perCategory].filter({ $0 != previous }).prefix(10).contains(store) {
                            sameHits += 1
                        }
                        if popularTop.filter({ $0 != previous }).prefix(10).contains(store) { popularHits += 1 }
                    }
                    opens[store] += 1
                    for other in today where other != store {
                        let (a, b) = (min(other, store), max(other, store))
                        if pairs.insert((viewer * stores + a) * stores + b).inserted {
                            covisits[a][b, default: 0] += 1
                            covisits[b][a, default: 0] += 1
                        }
                    }
                    today.append(store)
                }
            }
        }
        let n = Double(max(trials, 1))
        return (Double(hits) / n, Double(sameHits) / n, Double(popularHits) / n)
    }
}
