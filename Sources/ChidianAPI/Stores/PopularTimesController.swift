import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/stores/{id}/popular-times`: how busy a store usually is, for anyone.
struct PopularTimesController {
    let service: StoreService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("stores/:id/popular-times", use: read)
    }

    @Sendable func read(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (times, at) = try await service.popularTimes(id: try context.parameters.require("id"))
        var response = try WrittenJSON(body: PopularTimesAnswer(times: times, at: at))
            .response(from: request, context: context)
        // `now` turns with the hour and the counts with the flush: shared, briefly.
        response.headers[.cacheControl] = "public, max-age=5"
        return response
    }
}
