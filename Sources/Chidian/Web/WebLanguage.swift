/// The web client speaks the original app's Chinese, and English when the browser prefers it.
enum WebLanguage: String, Sendable {
    case zh = "zh-CN"
    case en

    /// The first of the browser's languages (by `q`, then order) that we speak; Chinese when none is.
    init(acceptLanguage header: String?) {
        var best: (language: WebLanguage, q: Double)?
        for part in (header ?? "").split(separator: ",").prefix(32) {
            let fields = part.split(separator: ";")
            let tag = fields.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            let q =
                fields.dropFirst().lazy.compactMap { field -> Double? in
                    let pair = field.trimmingCharacters(in: .whitespaces)
                    return pair.hasPrefix("q=") ? Double(pair.dropFirst(2)) : nil
                }.first ?? 1
            let language: WebLanguage? =
                tag == "zh" || tag.hasPrefix("zh-") ? .zh : tag == "en" || tag.hasPrefix("en-") ? .en : nil
            if let language, q > 0, q > (best?.q ?? 0) { best = (language, q) }
        }
        self = best?.language ?? .zh
    }

    var strings: [String: String] { self == .zh ? WebStrings.zh : WebStrings.en }

    func text(_ key: String) -> String { strings[key] ?? key }

    /// The words as templates read them (`{{t.name}}`), converted once.
    var templateStrings: TemplateValue { self == .zh ? Self.zhTemplateStrings : Self.enTemplateStrings }

    private static let zhTemplateStrings = WebStrings.zh.templateValue!
    private static let enTemplateStrings = WebStrings.en.templateValue!
}
