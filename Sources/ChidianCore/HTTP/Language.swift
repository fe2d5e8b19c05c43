/// The languages we answer in: the original app's Chinese, and English when the browser prefers it (the web
/// pages' words, the pick's reasons).
package enum Language: String, Sendable {
    case zh = "zh-CN"
    case en

    /// The first of the browser's languages (by `q`, then order) that we speak; Chinese when none is.
    package init(acceptLanguage header: String?) {
        var best: (language: Language, q: Double)?
        for part in (header ?? "").split(separator: ",").prefix(32) {
            let fields = part.split(separator: ";")
            let tag = fields.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            let q =
                fields.dropFirst().lazy.compactMap { field -> Double? in
                    let pair = field.trimmingCharacters(in: .whitespaces)
                    return pair.hasPrefix("q=") ? Double(pair.dropFirst(2)) : nil
                }.first ?? 1
            let language: Language? =
                tag == "zh" || tag.hasPrefix("zh-") ? .zh : tag == "en" || tag.hasPrefix("en-") ? .en : nil
            if let language, q > 0, q > (best?.q ?? 0) { best = (language, q) }
        }
        self = best?.language ?? .zh
    }
}
