import Hummingbird

/// Counts who used the service today (the admins' active users and visitors): every API call and page, once the
/// viewer is known.
package struct ActivityMiddleware: RouterMiddleware {
    package let insights: InsightCounter

    package func handle(
        _ request: Request, context: AppRequestContext,
        next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        insights.active(context.viewer, address: context.clientAddress)
        return try await next(request, context)
    }

    package init(insights: InsightCounter) {
        self.insights = insights
    }
}
