import Hummingbird

/// Reads (`GET`, `HEAD`) run their statements under `READ_STATEMENT_TIMEOUT_MS`, lower than the writes'
/// `STATEMENT_TIMEOUT_MS`: every read is an index walk bounded by its page size or search budget, so one that runs
/// long is stuck behind a lock or a starved machine, and answering 503 soon frees its connection for others.
package struct StatementDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    package let reads: Duration

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        return try await StatementDeadlines.$route.withValue(reads) { try await next(request, context) }
    }

    package init(reads: Duration) {
        self.reads = reads
    }
}
