import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The server-drawn charts: axes end on round numbers, bars stack, lines break where a day has no value, and
/// every figure reaches the table.
@Suite struct SVGChartTests {
    @Test(arguments: [(0.0, 4.0), (3, 4), (7, 8), (220, 240), (1001, 1200), (99, 100), (16_001, 20_000)])
    func axesEndOnRoundNumbers(value: Double, top: Double) {
        #expect(SVGChart.niceCeiling(value) == top)
    }

    @Test func barsStackLinesBreakAndTheTableHoldsEveryFigure() {
        // setup
        let chart = SVGChart(
            id: "t", title: "A <chart>", dates: ["2026-11-01", "2026-11-02", "2026-11-03"],
            series: [
                .init(label: "a", values: [1, 2, 0], kind: .bar, colour: 0),
                .init(label: "b", values: [3, 2, nil], kind: .bar, colour: 1),
                .init(label: "r", values: [4.5, nil, 3], kind: .line, colour: 2, format: { String($0) }),
            ], fixedMax: nil)
        // MUT
        let svg = chart.svg
        let table = chart.table
        // validate: five bars (no zero-height one), two lone points, the title escaped, a row per day
        #expect(svg.components(separatedBy: "<rect").count == 5)
        #expect(svg.components(separatedBy: "<circle").count == 3)
        #expect(!svg.contains("<polyline"))
        #expect(svg.contains("<title id=\"t-title\">A &lt;chart&gt;</title>"))
        guard case .list(let rows)? = table.field("rows") else {
            Issue.record("no rows")
            return
        }
        #expect(rows.count == 3)
    }
}
