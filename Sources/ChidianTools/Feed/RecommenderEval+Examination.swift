import ChidianCore
import Foundation

extension RecommenderEval {
    /// What a first page's clicks say about which places were looked at, and so where a place shown and not opened
    /// is a skip (issue #46). Position bias alone weighs a place by `examined` wherever the clicks were; a reader
    /// who scans from the top certainly looked at every place above one they clicked, and less likely at those below
    /// their last click, since a click often ends the reading. Evaluated only: using it live needs each open to carry
    /// its place on the page.
    public enum Examination: String, Sendable, CaseIterable {
        /// `examined(place)`, whatever was clicked.
        case positionBias = "by position"
        /// Places above the last click 1; below it, as by position.
        case aboveClicks = "above clicks"
        /// Places above the last click 1; below it, by position counted afresh from the click, halved.
        case cascade = "as a cascade"

        /// A place below the last click, under `cascade`: the share of readers taken to read on after a click.
        static let readOnAfterClick = 0.5

        /// How likely each of `count` places was looked at, given the places clicked (from 0).
        public func weights(count: Int, clicked: [Int]) -> [Double] {
            let byPosition = (0..<count).map(FeedPlanner.examined)
            guard self != .positionBias, let last = clicked.max() else { return byPosition }
            return (0..<count).map { place in
                if place <= last { return 1 }
                return self == .aboveClicks
                    ? byPosition[place] : FeedPlanner.examined(place - last - 1) * Self.readOnAfterClick
            }
        }
    }
}
