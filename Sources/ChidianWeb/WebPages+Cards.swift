import ChidianCore
import Synchronization

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
            let card = renderCard(
                "storeCard", StoreCardModel(try entry.view(), language: language, from: from), language: language,
                capacity: 1024)
            // Not counted in the cache's bytes: at most two cards an entry (about 1.3 kB), a store rarely shows more.
            entry.fragments.withLock { if $0.count < 2 { $0[variant] = card } }
            html += card
        }
        return .bytes(html)
    }
}

extension WebPages {
    /// Review cards as a viewer who is not signed in sees them (no like button: nothing of the viewer's), each
    /// rendered once per language and kept with the view it was rendered from: a kept card is used only while the
    /// review, its store and author read exactly as they did (views from the cache share their storage, so the
    /// comparison is mostly of references).
    func anonymousCommentCards(_ comments: [CommentView], language: Language) -> TemplateValue {
        var html: [UInt8] = []
        html.reserveCapacity(comments.count * 1500)
        for comment in comments {
            let key = comment.id + ":" + language.rawValue
            if let kept = CommentCardMemo.shared.card(key, for: comment) {
                html += kept
                continue
            }
            let card = renderCard(
                "commentCard", CommentCardModel(comment, viewer: .nobody, language: language), language: language,
                capacity: 2048)
            CommentCardMemo.shared.keep(key, card, for: comment)
            html += card
        }
        return .bytes(html)
    }
}

extension WebPages {
    /// A card's template alone, with the page's words below its model, as they are inside a page.
    fileprivate func renderCard(
        _ name: String, _ model: some TemplateObject, language: Language, capacity: Int
    ) -> [UInt8] {
        let words: TemplateFields = ["t": language.templateStrings]
        return library.render(name, stack: [.object(words), .object(model)], capacity: capacity)
    }
}

/// The review cards `anonymousCommentCards` kept: a bounded memo of a pure function (the view and the language
/// give the card), so it needs no invalidation and is nothing another server must know.
final class CommentCardMemo: Sendable {
    static let shared = CommentCardMemo()
    /// About 5 MB at most: a card and its view take about 2.5 kB.
    static let capacity = 2048
    private let cards = Mutex<[String: (view: CommentView, html: [UInt8])]>([:])

    func card(_ key: String, for view: CommentView) -> [UInt8]? {
        cards.withLock { cards in cards[key].flatMap { $0.view == view ? $0.html : nil } }
    }

    func keep(_ key: String, _ html: [UInt8], for view: CommentView) {
        cards.withLock { cards in
            // Full: start again (the featured feed draws from a few hundred reviews, which come back at once).
            if cards.count >= Self.capacity, cards[key] == nil { cards.removeAll(keepingCapacity: true) }
            cards[key] = (view, html)
        }
    }
}
