/// The account rules of the contract, free of any database.
public enum AccountRules {
    public static let maxNameLength = 32
    public static let minPasswordLength = 8

    /// The trimmed name, or 400 `name_required` / `invalid_name`.
    public static func validName(_ raw: String?) throws -> String {
        let name = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw AccountError.nameRequired }
        guard name.count <= maxNameLength else {
            throw AccountError.invalidName("The name must be at most \(maxNameLength) characters.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw AccountError.invalidName("The name must not contain control characters.")
        }
        return name
    }

    /// 400 `weak_password` under the minimum length.
    public static func checkPassword(_ password: String?) throws -> String {
        guard let password, password.count >= minPasswordLength else {
            throw AccountError.weakPassword(min: minPasswordLength)
        }
        return password
    }

    /// Roles anyone may register with; admins are made by the CLI only.
    public static func registrableRole(_ raw: String?) throws -> Role {
        switch raw {
        case nil, "user": return .user
        case "manager": return .manager
        default: throw AccountError.invalidRole
        }
    }
}

import Foundation
