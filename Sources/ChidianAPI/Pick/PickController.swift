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

    @Sendable func pick(_ request: Request, context: AppRequestContext) async throws -> JSONResponse<
        PickService.Answer
    > {
        let question = try PickService.Question(QueryParameters(request))
        let english = Language(acceptLanguage: request.headers[.acceptLanguage]) == .en
        var generator = SeededRandom.forRequest()
        return JSONResponse(
            try await service.answer(question, viewer: context.viewer, english: english, using: &generator),
            headers: [.cacheControl: "private, no-store"])
    }
}
