import Foundation
import PostgresNIO

/// One call of `search_page` (migration 008): the next `limit` hits after a position (NULL keys: the first page),
/// reading at most about `budget` rows, then the page's status row.
struct SearchPageStatement: PostgresPreparedStatement {
    package static let name = "search_page"
    package static let sql = """
        SELECT out_id, out_group, out_count, out_score, out_category, out_text_count, out_dish_names, out_dish_counts,
               out_approximate
        FROM search_page($1, $2, $3::int, $4::int, $5::float8, $6, $7::int, $8::int)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8, .int8, .text, .text, .int8, .int8]

    package var query: SearchQuery
    package var after: SearchRepository.Position?
    package var limit: Int
    package var budget: Int

    /// A store of the page, or the status row that ends it.
    package enum Row: Sendable {
        case hit(SearchRepository.Hit)
        case status(approximate: Bool, rowsRead: Int)
    }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(query.text)
        bindings.append(query.pinyin)
        bindings.append(after?.group)
        bindings.append(after?.count)
        bindings.append(after?.score)
        bindings.append(after?.id)
        bindings.append(limit)
        bindings.append(budget)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (id, group, count, score, category, textCount, dishNames, dishCounts, approximate) =
            try row.decodeAll((String?, Int?, Int, String?, Bool?, Int?, [String]?, [Int]?, Bool).self)
        guard let id, let group, let score, let category, let textCount, let dishNames, let dishCounts else {
            return .status(approximate: approximate, rowsRead: count)
        }
        return .hit(
            SearchRepository.Hit(
                position: .init(group: group, count: count, score: score, id: id), category: category,
                textCount: textCount, dishes: zip(dishNames, dishCounts).map { (name: $0.0, count: $0.1) }))
    }
}
