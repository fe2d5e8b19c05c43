import ChidianCore

/// The web pages' words in each language.
extension Language {
    var strings: [String: String] { self == .zh ? WebStrings.zh : WebStrings.en }

    func text(_ key: String) -> String { strings[key] ?? key }

    /// The words as templates read them (`{{t.name}}`), converted once.
    var templateStrings: TemplateValue { self == .zh ? Self.zhTemplateStrings : Self.enTemplateStrings }

    private static let zhTemplateStrings = WebStrings.zh.templateValue!
    private static let enTemplateStrings = WebStrings.en.templateValue!
}
