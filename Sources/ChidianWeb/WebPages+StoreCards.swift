import ChidianCore

extension WebPages {
    /// Store cards as HTML, each rendered once per cache entry, language and list. A card shows only what every
    /// viewer sees of the store, and the entry is replaced whenever any of that changes (a write to the store, or
    /// a coupon starting or ending), so the kept HTML is exactly as current as the entry.
    func storeCards(_ entries: [ReadCache.Entry<StoreCard>], language: Language, from: InsightSource?) throws
        -> TemplateValue
    {
        let variant = language.rawValue + ":" + (from?.rawValue ?? "")
        var html: [UInt8] = []
        html.reserveCapacity(entries.count * 640)
        for entry in entries {
            if let kept = entry.fragments.withLock({ $0[variant] }) {
                html += kept
                continue
            }
            // The words come from below the card, as they do inside a page.
            let words: TemplateFields = ["t": language.templateStrings]
            let card = library.render(
                "storeCard",
                stack: [.object(words), .object(StoreCardModel(try entry.view(), language: language, from: from))],
                capacity: 1024)
            entry.fragments.withLock { $0[variant] = card }
            html += card
        }
        return .bytes(html)
    }
}
