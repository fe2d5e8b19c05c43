import PostgresNIO
import Testing

@testable import Chidian

/// A test that fails on a database error names its SQLSTATE and PostgreSQL's message: `PSQLError` describes itself
/// generically on purpose (no statement, binds or row), which says nothing in a CI log.
extension PSQLError: @retroactive CustomTestStringConvertible {
    public var testDescription: String { summary }
}
