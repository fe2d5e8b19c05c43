import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A test that fails on a database error names its SQLSTATE and PostgreSQL's message: `PSQLError` describes itself
/// generically on purpose (no statement, binds or row), which says nothing in a CI log.
extension PSQLError: @retroactive CustomTestStringConvertible {
    public var testDescription: String { summary }
}
