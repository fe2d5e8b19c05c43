import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

/// `chidian dish …`: the dish vocabulary that pinyin search queries are matched against.
struct DishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dish", abstract: "List and extend the dish vocabulary that search matches pinyin against.",
        subcommands: [List.self, Add.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the dishes with their pinyin and how many stores and reviews mention them.")

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let entries = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await DishVocabulary(database: database).list()
            }
            print(["name", "pinyin", "initials", "stores", "reviews"].joined(separator: "\t"))
            for entry in entries {
                print(
                    [entry.name, entry.syllables, entry.initials, String(entry.stores), String(entry.reviews)]
                        .joined(separator: "\t"))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a dish (counted over the existing reviews at once) and print its pinyin and mentions.")
        @Argument(help: "The dish name (unique ignoring case, at most 32 characters).") var name: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let entry = try await withDatabase(config, logger: CLI.quietLogger(config)) { database in
                try await DishVocabulary(database: database).add(name: name)
            }
            let pinyin = entry.syllables.isEmpty ? "" : " (\(entry.syllables), \(entry.initials))"
            print("added \(entry.name)\(pinyin): \(entry.reviews) reviews in \(entry.stores) stores mention it")
        }
    }
}
