import Foundation
import PostgresNIO

/// The new accounts around each review (`ReviewEvidence.newcomersAround`, `newcomersFortnight`, `fortnightAlike`),
/// counted from its store's reviews read once (`TrustEvidenceStatements.storeWindows`) as the per-review statement
/// counts them (`TrustEvidenceStatements.newcomerCounts`): of the store's `sample` latest live reviews by other
/// authors within the window, the distinct authors whose account was under a week old when they posted.
struct NewcomerWindows {
    static let sample = 500
    /// The most reviews read of one store (a few megabytes, held one store at a time): a busier store's reviews are
    /// counted one at a time.
    static let cap = 50_000

    struct Row {
        var at: Date
        /// The author, numbered within the store (`authors`).
        var author: Int32
        var rating: Int
        /// Whether the author's account was under a week old when this review was posted.
        var newcomer: Bool
    }

    /// One store's reviews, newest first (ties by id, newest first), as the statement orders them.
    private(set) var rows: [Row] = []
    private var authors: [String: Int32] = [:]
    /// Per author, the last count that saw them (`counted`): distinct authors without hashing each row.
    private var seenAll: [Int] = []
    private var seenAlike: [Int] = []
    private var counted = 0

    mutating func append(at: Date, author: String, rating: Int, newcomer: Bool) {
        let number: Int32
        if let known = authors[author] {
            number = known
        } else {
            number = Int32(authors.count)
            authors[author] = number
            seenAll.append(-1)
            seenAlike.append(-1)
        }
        rows.append(Row(at: at, author: number, rating: rating, newcomer: newcomer))
    }

    /// The distinct new authors (other than `author`) among the store's latest `sample` reviews by other authors
    /// posted from `from` to `to` (both included), and how many of them gave `rating`.
    mutating func newcomers(author: String, rating: Int, from: Date, to: Date) -> (all: Int, alike: Int) {
        // Newest first: the reviews up to `to` are a suffix.
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].at <= to { high = middle } else { low = middle + 1 }
        }
        let own = authors[author] ?? -1
        counted += 1
        var taken = 0
        var all = 0
        var alike = 0
        for row in rows[low...] {
            guard row.at >= from, taken < Self.sample else { break }
            guard row.author != own else { continue }
            taken += 1
            guard row.newcomer else { continue }
            let a = Int(row.author)
            if seenAll[a] != counted {
                seenAll[a] = counted
                all += 1
            }
            if row.rating == rating, seenAlike[a] != counted {
                seenAlike[a] = counted
                alike += 1
            }
        }
        return (all, alike)
    }
}

extension NewcomerWindows {
    /// Sets the new accounts around each review of `found`, whose windows are `windows` (the same order), a store at
    /// a time as its reviews stream in.
    static func fill(
        _ found: inout [ReviewEvidence], windows: [(day: ClosedRange<Date>, fortnight: ClosedRange<Date>)], cap: Int,
        on connection: PostgresConnection, logger: Logger
    ) async throws {
        let byStore = Dictionary(grouping: found.indices, by: { found[$0].storeID })
        var busy: [String] = []
        func count(_ store: String, _ read: inout NewcomerWindows) {
            guard let judged = byStore[store] else { return }
            // One row past the statement's limit: the store was cut short.
            guard read.rows.count <= min(cap, 2 * sample * judged.count) else {
                busy += judged.map { found[$0].commentID }
                return
            }
            for i in judged {
                let review = found[i]
                let (day, fortnight) = windows[i]
                let around = read.newcomers(
                    author: review.authorID, rating: review.rating, from: day.lowerBound, to: day.upperBound)
                found[i].newcomersAround = around.all
                (found[i].newcomersFortnight, found[i].fortnightAlike) = read.newcomers(
                    author: review.authorID, rating: review.rating,
                    from: fortnight.lowerBound, to: fortnight.upperBound)
            }
        }
        var store: String?
        var read = NewcomerWindows()
        for row in try await connection.rows(
            TrustEvidenceStatements.storeWindows(found.map(\.commentID), cap: cap), logger: logger)
        {
            let (rowStore, at, author, rating, newcomer) = try row.decode((String, Date, String, Int, Bool).self)
            if let done = store, done != rowStore {
                count(done, &read)
                read = NewcomerWindows()
            }
            store = rowStore
            read.append(at: at, author: author, rating: rating, newcomer: newcomer)
        }
        if let done = store { count(done, &read) }
        guard !busy.isEmpty else { return }
        let index = Dictionary(uniqueKeysWithValues: found.indices.map { (found[$0].commentID, $0) })
        for row in try await connection.rows(TrustEvidenceStatements.newcomerCounts(busy), logger: logger) {
            let (id, around, fortnight, alike) = try row.decode((String, Int, Int, Int).self)
            guard let i = index[id] else { continue }
            found[i].newcomersAround = around
            found[i].newcomersFortnight = fortnight
            found[i].fortnightAlike = alike
        }
    }
}
