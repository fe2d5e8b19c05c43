import Logging
import PostgresNIO

/// What requests make of database errors, in one place. A constraint a client's value can break maps to that
/// field's 4xx (the validation in the rules types should have caught it first; this is the backstop). Anything
/// else is logged with its SQLSTATE, constraint and table only: a PSQLError's full description quotes the
/// failing row (`Failing row contains …`), password hashes and review bodies included.
enum DatabaseErrors {
    /// Client-caused violations by constraint name (sql/006_hostile_input.sql names the length checks).
    static let byConstraint: [String: Problem] = [
        "users_name_length": .badRequest("invalid_name", "The name is too long or not trimmed."),
        "users_name_lower": .conflict("name_taken", "The name is already used."),
        "stores_name_length": .badRequest("invalid_name", "The store name is too long or not trimmed."),
        "stores_description_length": .badRequest("invalid_description", "The description is too long."),
        "stores_address_length": .badRequest("invalid_address", "The address is too long."),
        "comments_body_length": .badRequest("body_too_long", "The body is blank or too long."),
    ]

    static let clientCodes: [PostgresError.Code] = [.checkViolation, .uniqueViolation, .notNullViolation]

    /// The field's 4xx for a violation a client caused, else nil.
    package static func problem(for error: PSQLError) -> Problem? {
        guard let code = error.serverCode, clientCodes.contains(code),
            let constraint = error.serverInfo?[.constraintName]
        else { return nil }
        return byConstraint[constraint]
    }

    /// Log metadata that names the error without any of the row's values.
    static func metadata(_ error: PSQLError) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["psql.kind": .string("\(error.code)")]
        if let state = error.serverCode { metadata["psql.sqlstate"] = .string(state.raw) }
        if let message = error.serverInfo?[.message] { metadata["psql.message"] = .string(message) }
        if let constraint = error.serverInfo?[.constraintName] { metadata["psql.constraint"] = .string(constraint) }
        if let table = error.serverInfo?[.tableName] { metadata["psql.table"] = .string(table) }
        return metadata
    }

    /// `metadata(_:)` for a PostgreSQL error, else the error's type: background work (the cache's listener,
    /// housekeeping) logs what failed without a description that could quote a row.
    static func metadata(any error: any Error) -> Logger.Metadata {
        if let error = error as? PSQLError { return metadata(error) }
        return ["error": .string(String(reflecting: type(of: error)))]
    }
}

extension PSQLError {
    /// The SQLSTATE and PostgreSQL's message, or the client-side kind: enough to diagnose a failure from a log or a
    /// test report. The message names objects (a constraint, a relation), not rows; the row is in `detail`, which
    /// is left out, as are the statement and its binds.
    public var summary: String {
        guard let state = serverInfo?[.sqlState] else { return "PostgreSQL client error: \(code)" }
        return "PostgreSQL \(state): \(serverInfo?[.message] ?? "no message")"
    }
}
