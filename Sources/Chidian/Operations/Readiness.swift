/// `/ready`'s database check: the database answers and every embedded migration is applied unchanged.
/// A database that cannot be reached in time throws `DatabaseUnavailable` (503 `database_unavailable`).
enum Readiness {
    static func schemaIsCurrent(database: Database, migrator: Migrator) async throws -> Bool {
        try await database.withConnection { connection in
            (try? await migrator.isCurrent(on: connection)) ?? false
        }
    }
}
