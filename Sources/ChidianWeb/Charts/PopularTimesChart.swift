import ChidianCore
import Foundation

/// Today's hours of a store's popular times as 24 bars in SVG (attributes, not styles: the CSP allows no inline
/// style), the current hour marked; the same shares go to a table for screen readers.
struct PopularTimesChart: Sendable {
    let hours: [Int]
    let current: Int

    static let width = 480.0, height = 120.0, bottom = 18.0

    var svg: String {
        let slot = Self.width / 24, plot = Self.height - Self.bottom
        var parts = [
            "<svg class=\"chart popular\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" aria-hidden=\"true\" focusable=\"false\">"
        ]
        for (hour, share) in hours.enumerated() {
            let barHeight = max(share > 0 ? 1 : 0, plot * Double(share) / 100)
            let x = Double(hour) * slot + 2, y = plot - barHeight
            let kind = hour == current ? "bar now" : "bar"
            parts.append(
                "<rect class=\"\(kind)\" x=\"\(Self.format(x))\" y=\"\(Self.format(y))\" width=\"\(Self.format(slot - 4))\" height=\"\(Self.format(barHeight))\"/>"
            )
        }
        for hour in stride(from: 0, to: 24, by: 6) {
            let x = Double(hour) * slot + slot / 2
            parts.append(
                "<text class=\"axis\" x=\"\(Self.format(x))\" y=\"\(Int(Self.height) - 4)\" text-anchor=\"middle\">\(hour)</text>"
            )
        }
        parts.append("</svg>")
        return parts.joined()
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
