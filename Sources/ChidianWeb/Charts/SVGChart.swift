import ChidianCore
import Foundation

/// A chart of days drawn on the server as SVG: bars (stacked when there are several) and lines, a left axis for
/// the bars (or the lines when there are no bars) and a right one for lines marked `secondary`. The same figures
/// go to a table beside it for screen readers (`table`).
struct SVGChart: Sendable {
    enum Kind: Sendable { case bar, line }

    struct Series: Sendable {
        let label: String
        let values: [Double?]
        let kind: Kind
        /// One of the stylesheet's chart colours, `c0`…`c5`.
        let colour: Int
        /// Drawn against the right axis.
        var secondary = false
        /// How a value is written in the table and on the axis.
        var format: @Sendable (Double) -> String = { Self.integer($0) }

        static func integer(_ value: Double) -> String { String(Int(value.rounded())) }
    }

    let id: String
    let title: String
    let dates: [String]
    let series: [Series]
    /// A fixed top of the left axis (ratings: 5); else the data's rounded up.
    var fixedMax: Double?

    static let width = 640.0, height = 220.0
    static let left = 44.0, right = 44.0, top = 12.0, bottom = 28.0

    var plotWidth: Double { Self.width - Self.left - Self.right }
    var plotHeight: Double { Self.height - Self.top - Self.bottom }

    /// The first of 1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8 times a power of ten at or above `value`: axes end on a
    /// round number whose quarters are round too, and the data fills most of the height.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 4 }
        let power = pow(10, floor(log10(value)))
        for step in [1.0, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10] where step * power >= value {
            return max(4, step * power)
        }
        return 10 * power
    }

    private func maximum(_ secondary: Bool) -> Double {
        if !secondary, let fixedMax { return fixedMax }
        let chosen = series.filter { $0.secondary == secondary }
        let bars = chosen.filter { $0.kind == .bar }
        let stackedTop = dates.indices.map { day in bars.reduce(0) { $0 + ($1.values[day] ?? 0) } }.max() ?? 0
        let lineTop = chosen.filter { $0.kind == .line }.flatMap { $0.values.compactMap { $0 } }.max() ?? 0
        return Self.niceCeiling(max(stackedTop, lineTop))
    }

    private func x(_ day: Int) -> Double {
        let slot = plotWidth / Double(max(dates.count, 1))
        return Self.left + slot * (Double(day) + 0.5)
    }

    private func y(_ value: Double, max: Double) -> Double {
        Self.top + plotHeight * (1 - min(value, max) / max)
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    var svg: String {
        let leftMax = maximum(false)
        let hasSecondary = series.contains { $0.secondary }
        let rightMax = hasSecondary ? maximum(true) : 1
        var out = """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-labelledby="\(id)-title" preserveAspectRatio="xMidYMid meet">\
            <title id="\(id)-title">\(Self.escape(title))</title>
            """
        // Grid and axes: four steps.
        let leftFormat = series.first { !$0.secondary }?.format ?? Series.integer
        let rightFormat = series.first { $0.secondary }?.format ?? Series.integer
        for step in 0...4 {
            let fraction = Double(step) / 4
            let yy = Self.top + plotHeight * (1 - fraction)
            out +=
                "<line class=\"grid\" x1=\"\(Self.number(Self.left))\" x2=\"\(Self.number(Self.width - Self.right))\" "
            out += "y1=\"\(Self.number(yy))\" y2=\"\(Self.number(yy))\"/>"
            out +=
                "<text class=\"axis\" x=\"\(Self.number(Self.left - 4))\" y=\"\(Self.number(yy + 4))\" text-anchor=\"end\">"
            out += "\(Self.escape(leftFormat(leftMax * fraction)))</text>"
            if hasSecondary {
                out +=
                    "<text class=\"axis\" x=\"\(Self.number(Self.width - Self.right + 4))\" y=\"\(Self.number(yy + 4))\">"
                out += "\(Self.escape(rightFormat(rightMax * fraction)))</text>"
            }
        }
        // Dates: first, middle and last.
        for day in Set([0, dates.count / 2, dates.count - 1]).sorted() where dates.indices.contains(day) {
            let anchor = day == 0 ? "start" : day == dates.count - 1 ? "end" : "middle"
            out += "<text class=\"axis\" x=\"\(Self.number(x(day)))\" y=\"\(Self.number(Self.height - 8))\" "
            out += "text-anchor=\"\(anchor)\">\(Self.escape(String(dates[day].suffix(5))))</text>"
        }
        // Bars, stacked in series order.
        let bars = series.filter { $0.kind == .bar }
        let slot = plotWidth / Double(max(dates.count, 1))
        let barWidth = max(1, slot * 0.7)
        for day in dates.indices {
            var base = 0.0
            for bar in bars {
                let value = bar.values[day] ?? 0
                guard value > 0 else { continue }
                let scale = bar.secondary ? rightMax : leftMax
                let top = y(base + value, max: scale), bottomY = y(base, max: scale)
                out += "<rect class=\"c\(bar.colour)\" x=\"\(Self.number(x(day) - barWidth / 2))\" "
                out += "y=\"\(Self.number(top))\" width=\"\(Self.number(barWidth))\" "
                out += "height=\"\(Self.number(max(0.5, bottomY - top)))\"/>"
                base += value
            }
        }
        // Lines: a gap where a day has no value; a dot where a value stands alone.
        for line in series where line.kind == .line {
            let scale = line.secondary ? rightMax : leftMax
            var runs: [[(Double, Double)]] = [[]]
            for day in dates.indices {
                if let value = line.values[day] {
                    runs[runs.count - 1].append((x(day), y(value, max: scale)))
                } else if !runs[runs.count - 1].isEmpty {
                    runs.append([])
                }
            }
            for run in runs where !run.isEmpty {
                if run.count == 1 {
                    out +=
                        "<circle class=\"s\(line.colour)\" cx=\"\(Self.number(run[0].0))\" cy=\"\(Self.number(run[0].1))\" r=\"2.5\"/>"
                } else {
                    let points = run.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
                    out += "<polyline class=\"l\(line.colour)\" points=\"\(points)\"/>"
                }
            }
        }
        return out + "</svg>"
    }

    /// The legend's entries, in series order.
    var legend: [TemplateFields] {
        series.map { ["label": $0.label, "colour": "c\($0.colour)", "line": $0.kind == .line] as TemplateFields }
    }

    /// The figures as a table: a header of series and a row per day (an empty cell where there is no value).
    var table: TemplateFields {
        [
            "id": id, "title": title, "svg": svg, "legend": legend,
            "headers": series.map(\.label),
            "rows": dates.indices.map { day in
                [
                    "date": dates[day],
                    "cells": series.map { $0.values[day].map($0.format) ?? "–" },
                ] as TemplateFields
            },
        ]
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
