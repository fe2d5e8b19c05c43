import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/pick` (今天吃点啥): one store and up to two alternatives for this viewer, here and now.
struct PickController {
    let service: PickService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("pick", use: pick)
    }

    @Sendable func pick(_ request: Request, context: AppRequestContext) async throws -> Response {
        let question = try PickService.Question(QueryParameters(request))
        let english = Language(acceptLanguage: request.headers[.acceptLanguage]) == .en
        var generator = SeededRandom.forRequest()
        let headers: HTTPFields = [.cacheControl: "private, no-store"]
        if service.stores.cache != nil {
            let written = try await service.written(
                question, viewer: context.viewer, english: english, using: &generator)
            var response = try WrittenJSON(body: written).response(from: request, context: context)
            response.headers.append(contentsOf: headers)
            return response
        }
        return try JSONResponse(
            try await service.answer(question, viewer: context.viewer, english: english, using: &generator),
            headers: headers
        ).response(from: request, context: context)
    }
}
