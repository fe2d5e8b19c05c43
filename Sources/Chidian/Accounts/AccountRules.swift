/// The account rules of the contract, free of any database.
public enum AccountRules {
    public static let maxNameLength = 32
    public static let minPasswordLength = 8

    /// The trimmed name, or 400 `name_required` / `invalid_name`.
    public static func validName(_ raw: String?) throws -> String {
        let name = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw Problem.badRequest("name_required", "The name must not be blank.") }
        guard name.count <= maxNameLength else {
            throw Problem.badRequest("invalid_name", "The name must be at most \(maxNameLength) characters.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem.badRequest("invalid_name", "The name must not contain control characters.")
        }
        return name
    }

    /// 400 `weak_password` under the minimum length.
    public static func checkPassword(_ password: String?) throws -> String {
        guard let password, password.count >= minPasswordLength else {
            throw Problem.badRequest("weak_password", "The password must be at least \(minPasswordLength) characters.")
        }
        return password
    }

    /// Roles anyone may register with; admins are made by the CLI only.
    public static func registrableRole(_ raw: String?) throws -> Role {
        switch raw {
        case nil, "user": return .user
        case "manager": return .manager
        default: throw Problem.badRequest("invalid_role", "The role must be \"user\" or \"manager\".")
        }
    }
}

import Foundation
