/// Points where a test can hold an import's transaction open, to check what other sessions can do meanwhile.
package enum ImportPause {
    package enum Point: Sendable {
        /// Comments merged with the triggers skipped, the touched stores locked, their totals recounted.
        case commentsMerged
        /// A bulk rebuild's fresh summary tables counted and indexed, not yet swapped in.
        case summariesIndexed
        /// Everything written (summaries swapped in); the commit comes next.
        case beforeCommit
    }

    @TaskLocal static var hook: (@Sendable (Point) async throws -> Void)?

    package static func reached(_ point: Point) async throws {
        if let hook { try await hook(point) }
    }
}
