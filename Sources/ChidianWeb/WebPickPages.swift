import ChidianCore
import Foundation
import HTTPTypes
import Hummingbird

/// 今天吃点啥 on the web: `/pick?near=LAT,LNG` (the browser's position, or a city's centre when it was refused)
/// shows one store, its reasons and two alternatives; 换一个 asks again skipping every store picked so far.
struct WebPickPages {
    let pages: WebPages
    let pick: PickService

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("pick", use: page)
    }

    /// The cities offered when the browser gives no position: their centres (WGS-84).
    static let cities: [(name: String, english: String, near: String)] = [
        ("成都", "Chengdu", "30.6598,104.0633"), ("广州", "Guangzhou", "23.1291,113.2644"),
        ("长沙", "Changsha", "28.2282,112.9388"), ("重庆", "Chongqing", "29.5630,106.5516"),
        ("上海", "Shanghai", "31.2304,121.4737"), ("北京", "Beijing", "39.9087,116.3975"),
        ("深圳", "Shenzhen", "22.5431,114.0579"), ("杭州", "Hangzhou", "30.2741,120.1551"),
        ("西安", "Xi'an", "34.2658,108.9541"), ("南京", "Nanjing", "32.0603,118.7969"),
        ("沈阳", "Shenyang", "41.8057,123.4315"),
    ]

    /// The home page's city picker.
    static func cityOptions(_ language: Language) -> [[String: String]] {
        cities.map { ["name": language == .zh ? $0.name : $0.english, "near": $0.near] }
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let language = context.web?.language ?? .zh
        var parameters: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where parameters[String(key)] == nil {
            parameters[String(key)] = String(value)
        }
        // The city picker's value stands in for a position the browser did not give.
        if (parameters["near"] ?? "").isEmpty, let city = parameters["city"], !city.isEmpty {
            parameters["near"] = city
        }
        // A city's centre: the whole city (10 km) rather than the 3 km around a person.
        if parameters["city"] != nil, (parameters["radius"] ?? "").isEmpty, parameters["near"] == parameters["city"] {
            parameters["radius"] = "10000"
        }
        var model: TemplateFields = ["cities": Self.cityOptions(language)]
        var status = HTTPResponse.Status.ok
        do {
            let question = try PickService.Question(QueryParameters(parameters))
            var generator = SeededRandom.forRequest()
            let answer = try await pick.answer(
                question, viewer: context.viewer, english: language == .en, using: &generator)
            // 换一个 skips the stores picked so far; the alternatives may come up next.
            let shown = question.skip + [answer.store.id]
            var again = ["skip": shown.suffix(PickService.Question.maxSkip).joined(separator: ",")]
            if let near = question.near {
                again["near"] = "\(near.point.lat),\(near.point.lng)"
                again["radius"] = String(near.radius)
            }
            if let maxPrice = question.maxPrice { again["maxPrice"] = String(maxPrice) }
            if let category = question.categoryID { again["category"] = category }
            model["pick"] =
                [
                    "card": StoreCardModel(answer.store, language: language, from: .pick),
                    "id": answer.store.id,
                    "reasons": answer.reasons.map { ["kind": $0.kind.rawValue, "text": $0.text] },
                ] as TemplateFields
            model["alternatives"] = answer.alternatives.map { StoreCardModel($0, language: language, from: .pick) }
            model["hasAlternatives"] = !answer.alternatives.isEmpty
            model["again"] =
                "/pick?"
                + again.keys.sorted().map { "\($0)=\(WebController.escapeQuery(again[$0]!))" }
                .joined(separator: "&")
        } catch {
            guard let problem = WebPages.refusal(error) else { throw error }
            model["error"] = WebManagePages.message(problem, language)
            status = problem.status
        }
        return pages.render("pick", title: language.text("pickTitle"), model: model, context: context, status: status)
    }
}
