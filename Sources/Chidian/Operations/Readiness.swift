/// `/ready`'s database check: the database answers and every embedded migration is applied unchanged.
/// A database that cannot be reached in time throws `DatabaseUnavailable` (503 `database_unavailable`).
enum Readiness {
    static func schemaIsCurrent(database: Database, migrator: Migrator) async throws -> Bool {
        try await database.withConnection { connection in
            (try? await migrator.isCurrent(on: connection)) ?? false
        }
    }

    /// The primary (it just answered) and every replica as the monitor last saw it.
    static func pools(_ database: Database) -> [Ready.Pool] {
        let primary = Ready.Pool(
            name: "primary", role: "primary", healthy: true, lagSeconds: nil, replayLSN: nil, problem: nil)
        let replicas = (database.replicas?.snapshot ?? []).enumerated().map { index, status in
            Ready.Pool(
                name: "replica\(index + 1)", role: "replica", healthy: status.healthy, lagSeconds: status.lagSeconds,
                replayLSN: status.replayLSN?.description, problem: status.problem)
        }
        return [primary] + replicas
    }
}
