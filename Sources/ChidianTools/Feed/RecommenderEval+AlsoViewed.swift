import ChidianCore
import Foundation

extension RecommenderEval {
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
