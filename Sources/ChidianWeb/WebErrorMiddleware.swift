import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// Web pages answer errors as pages, with the API's status and code and the problem in the viewer's language;
/// a page that needs a signed-in viewer sends an anonymous one to the sign-in form and back.
package struct WebErrorMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    let pages: WebPages

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch WebError.csrfFailed {
            return page(for: Problem(.forbidden, "csrf_failed", "The form's CSRF token is missing or stale."), context)
        } catch {
            let problem = ProblemMiddleware.problem(
                for: error, request: request, logger: context.logger, route: context.endpointPath)
            if problem.code == "login_required" {
                let back = request.method == .get ? request.uri.description : Self.refererPath(request)
                let next = WebController.localPath(back).map { "?next=\(WebController.escapeQuery($0))" } ?? ""
                return WebPages.redirect(to: "/login\(next)")
            }
            return page(for: problem, context)
        }
    }

    /// Where a form was posted from, as a path on this site.
    static func refererPath(_ request: Request) -> String {
        guard let raw = request.headers[.referer], let url = URLComponents(string: raw), url.host != nil else {
            return "/"
        }
        return url.percentEncodedPath + (url.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    func page(for problem: Problem, _ context: Context) -> Response {
        let language = context.web?.language ?? .zh
        let model: TemplateFields = [
            "status": problem.status.code, "code": problem.code,
            "message": language.strings["error.\(problem.code)"] ?? problem.detail,
        ]
        var response = pages.render(
            "error", title: language.text("error"), model: model, context: context, status: problem.status)
        for field in problem.headers { response.headers.append(field) }
        return response
    }

    package init(pages: WebPages) {
        self.pages = pages
    }
}

extension HTTPField.Name {
    static let referer = Self("Referer")!
}
