import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct CategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category", abstract: "List, add and rename store categories.",
        subcommands: [List.self, Add.self, Rename.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List categories with their count of live stores.")

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let categories = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).listCategories()
            }
            print(["id", "name", "stores"].joined(separator: "\t"))
            for category in categories {
                print([category.id, category.name, String(category.storeCount)].joined(separator: "\t"))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a category and print its id.")
        @Argument(help: "The name (unique ignoring case, at most 32 characters).") var name: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let category = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).addCategory(name: name)
            }
            print(category.id)
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a category.")
        @Argument(help: "The category's id.") var id: String
        @Argument(help: "The new name.") var name: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let category = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await StoreAdmin(database: database).renameCategory(id: id, to: name)
            }
            print("renamed \(category.id) to \(category.name)")
        }
    }
}
