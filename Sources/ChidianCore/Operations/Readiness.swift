/// `/ready`'s database check: the database answers and every embedded migration is applied unchanged.
/// A database that cannot be reached in time throws `DatabaseUnavailable` (503 `database_unavailable`).
package struct Readiness: Sendable {
    package let database: Database
    package let migrator: Migrator

    package init(database: Database, migrator: Migrator) {
        self.database = database
        self.migrator = migrator
    }

    package func schemaIsCurrent() async throws -> Bool {
        try await database.withConnection { connection in
            (try? await migrator.isCurrent(on: connection)) ?? false
        }
    }

    /// The primary (it just answered) and every replica as the monitor last saw it.
    package func pools() -> [Ready.Pool] {
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

/// `/ready`'s answer: the primary answered; each replica as the monitor last saw it.
package struct Ready: Encodable, Sendable {
    package struct Pool: Encodable, Sendable {
        package let name: String
        package let role: String
        package let healthy: Bool
        package let lagSeconds: Double?
        package let replayLSN: String?
        package let problem: String?
    }
    package let status: String
    package let pools: [Pool]

    package init(status: String, pools: [Pool]) {
        self.status = status
        self.pools = pools
    }
}
