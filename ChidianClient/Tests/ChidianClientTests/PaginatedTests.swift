import Testing

@testable import ChidianClient

/// Cursor paging as an AsyncSequence, without a server: a fake list of three pages.
@Suite struct PaginatedTests {
    actor Pages {
        var asked: [String?] = []
        func page(_ cursor: String?) -> (items: [Int], nextCursor: String?) {
            asked.append(cursor)
            switch cursor {
            case nil: return ([1, 2], "a")
            case "a": return ([], "b")  // an empty page that is not the last is skipped over
            case "b": return ([3], nil)
            default: return ([], nil)
            }
        }
    }

    @Test func followsTheCursorToTheLastPage() async throws {
        let pages = Pages()
        // MUT
        var items: [Int] = []
        for try await item in Paginated({ try await Self.fetch(pages, $0) }) { items.append(item) }
        // validate
        #expect(items == [1, 2, 3])
        #expect(await pages.asked == [nil, "a", "b"])
    }

    @Test func takingTheFirstItemsFetchesOnlyTheirPages() async throws {
        let pages = Pages()
        // MUT
        let two = try await Paginated { try await Self.fetch(pages, $0) }.first(2)
        // validate
        #expect(two == [1, 2])
        #expect(await pages.asked == [nil])
    }

    @Test func anErrorEndsTheSequence() async throws {
        let failing = Paginated<Int> { _ in
            throw ChidianError(code: .invalidCursor, status: 400, title: "Bad Request", detail: "no")
        }
        // MUT / validate
        await #expect(throws: ChidianError.self) { try await failing.first(1) }
    }

    static func fetch(_ pages: Pages, _ cursor: String?) async throws -> (items: [Int], nextCursor: String?) {
        await pages.page(cursor)
    }
}
