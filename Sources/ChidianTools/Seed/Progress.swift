import ChidianCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Progress for long CLI work: a live bar on a terminal; on a pipe (CI logs) a plain line every 15 seconds.
public final class ProgressReporter: @unchecked Sendable {
    let label: String
    let isTerminal: Bool
    let start = Date()
    private var lastPrint = Date.distantPast
    private let lock = NSLock()

    public init(label: String, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.isTerminal = isTerminal
        // In a log, short work prints nothing: the first line comes after one interval.
        lastPrint = isTerminal ? .distantPast : start
    }

    /// `done` of `total` units (bytes or rows), with `rows` processed so far for the rate.
    public func update(phase: String, done: Int, total: Int, rows: Int) {
        lock.withLock {
            let now = Date()
            let interval = isTerminal ? 0.2 : 15
            guard now.timeIntervalSince(lastPrint) >= interval else { return }
            lastPrint = now
            let elapsed = max(now.timeIntervalSince(start), 0.001)
            let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
            let rate = Int(Double(rows) / elapsed)
            let eta = fraction > 0.01 ? Int(elapsed / fraction - elapsed) : nil
            let etaText = eta.map { "ETA \($0)s" } ?? "ETA –"
            if isTerminal {
                let width = 30
                let filled = Int(fraction * Double(width))
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                let line =
                    "\r\(label) \(phase) \(bar) \(Int(fraction * 100))% \(rows) rows \(rate)/s \(etaText)\u{1B}[K"
                FileHandle.standardError.write(Data(line.utf8))
            } else {
                let line = "\(label): \(phase) \(Int(fraction * 100))%, \(rows) rows, \(rate) rows/s, \(etaText)\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
    }

    public func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
