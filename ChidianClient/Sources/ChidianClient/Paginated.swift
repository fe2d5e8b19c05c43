/// A cursor-paged list as an `AsyncSequence` of its items: the first page is fetched on the first `next()`, each
/// later page when the previous one is used up, until `nextCursor` is null. Breaking out of a `for try await`
/// loop fetches nothing more.
public struct Paginated<Item: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Item
    /// One page: its items and the cursor of the next one (nil on the last).
    public typealias Fetch = @Sendable (_ cursor: String?) async throws -> (items: [Item], nextCursor: String?)

    let fetch: Fetch

    public init(_ fetch: @escaping Fetch) { self.fetch = fetch }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(fetch: fetch) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let fetch: Fetch
        var buffer: [Item] = []
        var index = 0
        var cursor: String?
        var finished = false

        public mutating func next() async throws -> Item? {
            while index == buffer.count {
                if finished { return nil }
                let page = try await fetch(cursor)
                buffer = page.items
                index = 0
                cursor = page.nextCursor
                finished = page.nextCursor == nil
            }
            defer { index += 1 }
            return buffer[index]
        }
    }

    /// The first `count` items at most (fetching only the pages they need).
    public func first(_ count: Int) async throws -> [Item] {
        var items: [Item] = []
        guard count > 0 else { return items }
        for try await item in self {
            items.append(item)
            if items.count == count { break }
        }
        return items
    }
}
