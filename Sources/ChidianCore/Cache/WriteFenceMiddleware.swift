import Hummingbird

/// Read-your-writes with the cache: a write's answer leaves only once this server has applied the invalidations
/// it committed (`CacheListener.fence`), so the client's next read here cannot find the old entry. Inside the
/// request the caches are bypassed: the answer reads back what it wrote.
package struct WriteFenceMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    package let listener: CacheListener

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        // A request that ran no statement on the primary (a sold-out claim answered from memory) committed nothing.
        let used = StartFlag()
        do {
            let response = try await Database.$primaryUsed.withValue(used) {
                try await ReadCache.$bypass.withValue(true) { try await next(request, context) }
            }
            if used.isSet { await listener.fence() }
            return response
        } catch {
            // A refused write may still have committed part of its work (an upload before a failed step).
            if used.isSet { await listener.fence() }
            throw error
        }
    }

    package init(listener: CacheListener) {
        self.listener = listener
    }
}
