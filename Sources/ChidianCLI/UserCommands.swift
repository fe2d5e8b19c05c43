import ArgumentParser
import ChidianAPI
import ChidianApp
import ChidianCore
import ChidianTools

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Create and manage accounts (admins are made only here).",
        subcommands: [Create.self, List.self, SetRole.self, ResetPassword.self, Delete.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user, manager or admin.")
        @Option(help: "The name (1–32 characters, unique ignoring case).") var name: String
        @Option(help: "The password (at least 8 characters).") var password: String
        @Option(help: "user, manager or admin.") var role: Role = .user

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            let user = try await withDatabase(config, logger: logger) { database in
                try await UserAdmin(database: database, config: config).create(
                    name: name, password: password, role: role)
            }
            print("created \(user.role.rawValue) \(user.name) (\(user.id))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every account.")

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            let users = try await withDatabase(config, logger: logger) { database in
                try await UserAdmin(database: database, config: config).list()
            }
            print(["id", "name", "role", "reviews", "created"].joined(separator: "\t"))
            for user in users {
                print(
                    [
                        user.id, user.name, user.role.rawValue, String(user.reviewCount),
                        user.createdAt.formatted(.iso8601),
                    ]
                    .joined(separator: "\t"))
            }
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Change a user's role.")
        @Argument(help: "The user's name (any case).") var name: String
        @Argument(help: "user, manager or admin.") var role: Role

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            try await withDatabase(config, logger: logger) { database in
                try await UserAdmin(database: database, config: config).setRole(name: name, role: role)
            }
            print("\(name) is now \(role.rawValue)")
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Set a new random password, sign the user out everywhere and print it.")
        @Argument(help: "The user's name (any case).") var name: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            let password = try await withDatabase(config, logger: logger) { database in
                try await UserAdmin(database: database, config: config).resetPassword(name: name)
            }
            print(password)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account and everything that names it, as DELETE /v1/me does (no password asked).")
        @Argument(help: "The user's name (any case).") var name: String

        func run() async throws {
            let (config, _) = try CLI.setUp()
            let logger = CLI.quietLogger(config)
            let report = try await withDatabase(config, logger: logger) { database in
                try await UserAdmin(database: database, config: config).delete(name: name)
            }
            print(
                "deleted \(name): \(report.reviews) reviews, \(report.images) images, "
                    + "\(report.storesHandedOver) archived stores handed over")
        }
    }
}

extension Role: ExpressibleByArgument {}
