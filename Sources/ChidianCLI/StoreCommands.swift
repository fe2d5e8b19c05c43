import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "List stores, archive and restore them.",
        subcommands: [List.self, Archive.self, Restore.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every store, archived ones included.")

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let stores = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).listStores()
            }
            print(["id", "name", "category", "manager", "rating", "adSpend", "archived"].joined(separator: "\t"))
            for store in stores {
                let rating =
                    store.ratingAverage.map { "\(($0 * 100).rounded() / 100) (\(store.ratingCount))" } ?? "- (0)"
                print(
                    [
                        store.id, store.name, store.category, store.manager, rating, String(store.adSpend),
                        store.archived ? "yes" : "no",
                    ]
                    .joined(separator: "\t"))
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive a store: it leaves every list and answers 404.")
        @Argument(help: "The store's id.") var id: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let changed = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).archiveStore(id: id)
            }
            print(changed ? "archived \(id)" : "\(id) was already archived")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restore an archived store.")
        @Argument(help: "The store's id.") var id: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let changed = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).restoreStore(id: id)
            }
            print(changed ? "restored \(id)" : "\(id) was not archived")
        }
    }
}
